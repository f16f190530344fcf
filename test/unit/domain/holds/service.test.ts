import { describe, expect, it, vi } from 'vitest';
import { httpResponses } from '../../../../functions/api/problems';
import {
  type HoldRecord,
  type HoldSettlement,
  holdStatusAt,
  holdView,
} from '../../../../functions/domain/accounts/hold-record';
import type { LedgerEntry } from '../../../../functions/domain/accounts/model';
import type { HoldPort, SettleHoldResult } from '../../../../functions/domain/holds/port';
import { HoldService, holdRefusal } from '../../../../functions/domain/holds/service';
import type { MovementPort } from '../../../../functions/domain/movements/port';
import { fakeHoldPort } from '../../../support/fakes/ledger/holds';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

const NOW = new Date('2026-12-01T10:00:00.000Z');
const ctx = { principal: 'alice', idempotencyKey: 'k1', now: NOW };
const hold: HoldRecord = {
  id: 'h1',
  accountId: 'a1',
  ownerId: 'alice',
  amount: 300,
  currency: 'EUR',
  status: 'active',
  capturedAmount: 0,
  expiresAt: '2026-12-01T10:05:00.000Z',
  createdAt: '2026-12-01T09:55:00.000Z',
  updatedAt: '2026-12-01T09:55:00.000Z',
};

/**
 * The hold port and the movement port; `settleHold` records both ways a hold is settled, a
 * void (the hold port's) and a capture (the movement store's, docs/contract.md §23).
 */
const fakePort = (
  stored: HoldRecord | undefined,
  settled: SettleHoldResult = { kind: 'committed' },
) => {
  const settleHold = vi.fn(
    async (_claim: unknown, _settlement: HoldSettlement, _entry?: LedgerEntry) => settled,
  );
  return Object.assign(fakeHoldPort({ voidHold: settleHold, getHold: async () => stored }), {
    movements: fakeMovementPort({ capture: settleHold }),
    settleHold,
  });
};

const service = (port: HoldPort & { movements: MovementPort }) =>
  new HoldService(port, port.movements, {
    idempotencyRetentionSeconds: 60,
    responses: httpResponses,

    newId: () => 'new-id',
  });

describe('hold status', () => {
  it.each([
    ['active before expiry', hold, NOW, 'active'],
    ['expired at the instant of expiry', hold, new Date(hold.expiresAt), 'expired'],
    [
      'captured stays captured after expiry',
      { ...hold, status: 'captured' as const },
      new Date('2027-01-01'),
      'captured',
    ],
  ])('%s', (_name, record, at, status) => {
    expect(holdStatusAt(record, at)).toBe(status);
    expect(holdView(record, at)).not.toHaveProperty('ownerId');
  });

  it.each([
    ['captured', { status: 'captured' as const }, NOW, 'hold_not_active'],
    [
      'voided, even past expiry',
      { status: 'voided' as const },
      new Date('2027-01-01'),
      'hold_not_active',
    ],
    ['active past expiry', {}, new Date(hold.expiresAt), 'hold_expired'],
    [
      'swept (stored expired)',
      { status: 'expired' as const },
      new Date('2027-01-01'),
      'hold_expired',
    ],
  ])('refuses a %s hold with %s', (_name, change, at, code) => {
    expect(holdRefusal({ ...hold, ...change }, at)?.code).toBe(code);
  });

  it('does not refuse an active hold before its expiry', () => {
    expect(holdRefusal(hold, NOW)).toBeUndefined();
  });
});

describe('HoldService', () => {
  it('captures the whole hold by default: balance −amount, nothing back to available', async () => {
    const port = fakePort(hold);
    const res = await service(port).capture(ctx, 'h1', undefined, {});
    expect(res).toMatchObject({ statusCode: 200, replayed: false });
    const [, settlement, entry] = vi.mocked(port.settleHold).mock.calls[0] ?? [];
    expect(settlement).toMatchObject({
      balanceDelta: -300,
      availableDelta: 0,
      requires: 'unexpired',
    });
    expect(entry).toMatchObject({ type: 'capture', amount: 300, holdId: 'h1', accountId: 'a1' });
  });

  it('returns the uncaptured rest of a partial capture to available', async () => {
    const port = fakePort(hold);
    await service(port).capture(ctx, 'h1', 120, {});
    const [, settlement] = vi.mocked(port.settleHold).mock.calls[0] ?? [];
    expect(settlement).toMatchObject({ balanceDelta: -120, availableDelta: 180 });
    expect(settlement?.hold).toMatchObject({ status: 'captured', capturedAmount: 120 });
  });

  it('refuses a capture above the hold before claiming anything', async () => {
    const port = fakePort(hold);
    await expect(service(port).capture(ctx, 'h1', 301, {})).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect(port.recordResponse).not.toHaveBeenCalled();
    expect(port.settleHold).not.toHaveBeenCalled();
  });

  it('checks the key before that refusal: a key used with another body is 422, its own body replays', async () => {
    const port = fakePort(hold);
    const stored = { fingerprint: 'another request', statusCode: 200, body: '{}', expiresAt: 2e9 };
    vi.mocked(port.findRecord).mockResolvedValue(stored);
    await expect(service(port).capture(ctx, 'h1', 301, { amount: 301 })).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    const [key] = vi.mocked(port.findRecord).mock.calls[0] ?? [];
    vi.mocked(port.findRecord).mockResolvedValue({
      ...stored,
      fingerprint: String(key?.fingerprint),
    });
    const replay = await service(port).capture(ctx, 'h1', 301, { amount: 301 });
    expect(replay).toEqual({ statusCode: 200, body: '{}', replayed: true });
    expect(port.settleHold).not.toHaveBeenCalled();
  });

  it("answers not_found for someone else's hold", async () => {
    const port = fakePort({ ...hold, ownerId: 'bob' });
    await expect(service(port).void(ctx, 'h1', {})).rejects.toMatchObject({ code: 'not_found' });
  });

  it('records the refusal of a settled hold without trying to settle it again', async () => {
    const port = fakePort({ ...hold, status: 'voided' });
    const res = await service(port).capture(ctx, 'h1', undefined, {});
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body).code).toBe('hold_not_active');
    expect(port.recordResponse).toHaveBeenCalledOnce();
    expect(port.settleHold).not.toHaveBeenCalled();
  });

  it('explains a hold that changed between read and write by its state then', async () => {
    const port = fakePort(hold, { kind: 'hold_changed', hold: { ...hold, status: 'captured' } });
    const res = await service(port).void(ctx, 'h1', {});
    expect(JSON.parse(res.body).code).toBe('hold_not_active');
    const [, settlement] = vi.mocked(port.settleHold).mock.calls[0] ?? [];
    expect(settlement).toMatchObject({ balanceDelta: 0, availableDelta: 300 });
  });
});

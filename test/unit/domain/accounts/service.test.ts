import { describe, expect, it, vi } from 'vitest';
import { httpResponses } from '../../../../functions/api/problems';
import type { AccountRecord } from '../../../../functions/domain/accounts/model';
import type { LedgerPort, WriteResult } from '../../../../functions/domain/accounts/port';
import { LedgerService } from '../../../../functions/domain/accounts/service';
import type { RecordResult } from '../../../../functions/domain/idempotency/port';
import type { Once } from '../../../../functions/domain/movements/once';
import type { MovementPort } from '../../../../functions/domain/movements/port';
import { fakeLedgerPort } from '../../../support/fakes/ledger/accounts';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

const ctx = { principal: 'alice', idempotencyKey: 'k1', now: new Date('2026-11-29T10:00:00Z') };
const debit = { type: 'debit' as const, amount: 50, currency: 'EUR' };
const account: AccountRecord = {
  id: 'a1',
  ownerId: 'alice',
  currency: 'EUR',
  balance: 10,
  available: 10,
  overdraftLimit: 0,
  status: 'open' as const,
  creditIntake: 'direct' as const,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
};

const fakePort = (write: WriteResult, record: RecordResult = { kind: 'recorded' }) =>
  Object.assign(
    fakeLedgerPort({
      createAccount: async () => write,
      recordResponse: async () => record,
      getAccount: async () => account,
    }),
    { movements: fakeMovementPort({ post: async () => write }) },
  );

/** The request claim a credit or debit was written with. */
const claimOf = (once: Once | undefined) => (once?.kind === 'request' ? once.claim : undefined);

const service = (port: LedgerPort & { movements?: MovementPort }) =>
  new LedgerService(port, port.movements ?? fakeMovementPort(), {
    idempotencyRetentionSeconds: 60,
    responses: httpResponses,
    backdateLimitDays: 90,
    newId: () => 'e1',
  });

describe('LedgerService decisions', () => {
  it('claims with the fingerprint, TTL and the response a replay returns', async () => {
    const port = fakePort({ kind: 'committed' });
    const res = await service(port).postTransaction(ctx, 'a1', debit, { ...debit });
    expect(res).toMatchObject({ statusCode: 201, replayed: false });
    const [once, posting] = port.movements.post.mock.calls[0] ?? [];
    const claim = claimOf(once);
    const { entry, guard } = posting ?? {};
    expect(claim?.expiresAt).toBe(Math.floor(ctx.now.getTime() / 1000) + 60);
    expect(claim?.response.body).toBe(res.body);
    expect(entry).toMatchObject({ id: 'e1', origin: 'http', accountId: 'a1' });
    // An open account's spendable (available + overdraftLimit) must cover it (§17).
    expect(guard).toEqual({
      ownerId: 'alice',
      currency: 'EUR',
      requireOpen: true,
      requireAvailableAtLeast: 50,
      // Refused in a closed period (§26): no effectiveAt given, so the commit's time.
      effectiveAt: ctx.now.toISOString(),
    });
  });

  it('replays a claim with the same fingerprint and refuses another', async () => {
    const committed = fakePort({ kind: 'committed' });
    await service(committed).postTransaction(ctx, 'a1', debit, debit);
    const fingerprint = claimOf(committed.movements.post.mock.calls[0]?.[0])?.fingerprint ?? '';
    const stored = { fingerprint, statusCode: 409, body: '{"stored":true}', expiresAt: 1 };
    await expect(
      service(fakePort({ kind: 'claimed', record: stored })).postTransaction(
        ctx,
        'a1',
        debit,
        debit,
      ),
    ).resolves.toEqual({ statusCode: 409, body: '{"stored":true}', replayed: true });
    await expect(
      service(
        fakePort({ kind: 'claimed', record: { ...stored, fingerprint: 'other' } }),
      ).postTransaction(ctx, 'a1', debit, debit),
    ).rejects.toMatchObject({ code: 'idempotency_key_reused' });
  });

  it.each([
    ['a missing account', undefined],
    ['another owner', { ...account, ownerId: 'bob' }],
  ])('answers 404 for %s and records nothing', async (_name, found) => {
    const port = fakePort({ kind: 'account_rejected', account: found });
    await expect(service(port).postTransaction(ctx, 'a1', debit, debit)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(port.recordResponse).not.toHaveBeenCalled();
  });

  it.each([
    [
      'insufficient funds',
      { kind: 'account_rejected', account } as WriteResult,
      409,
      'insufficient_funds',
    ],
    [
      'a currency mismatch',
      { kind: 'account_rejected', account: { ...account, currency: 'USD' } } as WriteResult,
      422,
      'currency_mismatch',
    ],
    ['a used paymentId', { kind: 'payment_id_taken' } as WriteResult, 409, 'payment_id_conflict'],
  ])('records %s so that it replays', async (_name, write, status, code) => {
    const port = fakePort(write);
    const res = await service(port).postTransaction(ctx, 'a1', debit, debit);
    expect(res.statusCode).toBe(status);
    expect(JSON.parse(res.body).code).toBe(code);
    const recorded = vi.mocked(port.recordResponse).mock.calls[0]?.[0];
    expect(recorded?.response).toEqual({ statusCode: status, body: res.body });
  });

  it('yields to a claim committed while the rejection was being recorded', async () => {
    const winner = fakePort({ kind: 'committed' });
    await service(winner).postTransaction(ctx, 'a1', debit, debit);
    const fingerprint = claimOf(winner.movements.post.mock.calls[0]?.[0])?.fingerprint ?? '';
    const port = fakePort(
      { kind: 'account_rejected', account },
      {
        kind: 'claimed',
        record: { fingerprint, statusCode: 201, body: '{"won":1}', expiresAt: 1 },
      },
    );
    await expect(service(port).postTransaction(ctx, 'a1', debit, debit)).resolves.toEqual({
      statusCode: 201,
      body: '{"won":1}',
      replayed: true,
    });
  });

  it('refuses to invent a rejection when the guard failed on a state that satisfies it', async () => {
    const port = fakePort({
      kind: 'account_rejected',
      account: { ...account, balance: 500, available: 500 },
    });
    await expect(service(port).postTransaction(ctx, 'a1', debit, debit)).rejects.toMatchObject({
      code: 'internal',
    });
  });
});

describe('LedgerService.closeAccount (docs/contract.md §17)', () => {
  const empty: AccountRecord = { ...account, balance: 0, available: 0 };
  const closer = (reads: (AccountRecord | undefined)[], close = fakeLedgerPort().closeAccount) =>
    fakeLedgerPort({ getAccount: async () => reads.shift(), closeAccount: close });

  it('writes the claim and the status of an empty account, answering it closed', async () => {
    const port = closer([empty]);
    const res = await service(port).closeAccount(ctx, 'a1', {});
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ id: 'a1', status: 'closed' });
    expect(port.closeAccount).toHaveBeenCalledOnce();
  });

  it('answers a closed account as it is, writing only the claim', async () => {
    const port = closer([{ ...empty, status: 'closed' }]);
    const res = await service(port).closeAccount(ctx, 'a1', {});
    expect(res.statusCode).toBe(200);
    expect(port.closeAccount).not.toHaveBeenCalled();
    expect(port.recordResponse).toHaveBeenCalledOnce();
  });

  it.each([
    ['a balance', { balance: 5, available: 5 }],
    ['money on hold', { balance: 0, available: -5 }],
    ['an overdraft', { balance: -5, available: -5 }],
  ])('records account_not_empty for %s', async (_name, money) => {
    const port = closer([{ ...account, ...money }]);
    const res = await service(port).closeAccount(ctx, 'a1', {});
    expect([res.statusCode, JSON.parse(res.body).code]).toEqual([409, 'account_not_empty']);
    expect(port.recordResponse).toHaveBeenCalledOnce();
  });

  it('decides again on a fresh read when the account moved between the read and the write', async () => {
    const moved = vi
      .fn<LedgerPort['closeAccount']>()
      .mockResolvedValueOnce({ kind: 'account_moved', account: { ...empty, balance: 3 } })
      .mockResolvedValue({ kind: 'committed' });
    const port = closer([empty, { ...empty, balance: 3, available: 3 }], moved);
    const res = await service(port).closeAccount(ctx, 'a1', {});
    expect(JSON.parse(res.body).code).toBe('account_not_empty');
    expect(port.getAccount).toHaveBeenCalledTimes(2);
  });

  it('answers 404 for a foreign account after checking the key', async () => {
    const port = closer([{ ...empty, ownerId: 'bob' }]);
    await expect(service(port).closeAccount(ctx, 'a1', {})).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(port.findRecord).toHaveBeenCalledOnce();
  });
});

import { describe, expect, it } from 'vitest';
import { httpResponses } from '../../../../functions/api/problems';
import type { AccountRecord } from '../../../../functions/domain/accounts/model';
import { LedgerTransactionService } from '../../../../functions/domain/ledger-transactions/service';
import type { MovementPort } from '../../../../functions/domain/movements/port';
import { fakeLedgerTransactionPort } from '../../../support/fakes/ledger/ledger-transactions';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

/** docs/contract.md §16: the decisions of a ledger transaction, on a fake port. */
const ctx = { principal: 'alice', idempotencyKey: 'k', now: new Date('2026-12-01T10:00:00Z') };
let counter = 0;
/** The port, with the movement port whose `ledgerTransaction` writes it (docs/contract.md §23). */
const fakePorts = (
  overrides: Parameters<typeof fakeLedgerTransactionPort>[0] &
    Pick<Partial<MovementPort>, 'ledgerTransaction'> = {},
) => {
  const { ledgerTransaction, ...rest } = overrides;
  return Object.assign(fakeLedgerTransactionPort(rest), {
    movements: fakeMovementPort(ledgerTransaction ? { ledgerTransaction } : {}),
  });
};
const service = (port: ReturnType<typeof fakePorts>) =>
  new LedgerTransactionService(port, port.movements, {
    idempotencyRetentionSeconds: 60,
    responses: httpResponses,
    backdateLimitDays: 90,
    newId: () => `id-${++counter}`,
  });
const account = (id: string, ownerId = 'alice'): AccountRecord => ({
  id,
  ownerId,
  currency: 'EUR',
  balance: 0,
  available: 0,
  overdraftLimit: 0,
  status: 'open',
  creditIntake: 'direct' as const,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
});
const input = (amounts: [number, number]) => ({
  currency: 'EUR',
  legs: [
    { accountId: 'a', direction: 'debit' as const, amount: amounts[0] },
    { accountId: 'b', direction: 'credit' as const, amount: amounts[1] },
  ],
  paymentId: 'p',
});

describe('LedgerTransactionService', () => {
  it('writes one movement: a guarded leg per account, the paymentId on the first debit only', async () => {
    const port = fakePorts();
    const res = await service(port).createLedgerTransaction(ctx, input([5, 5]), {});
    expect(res.statusCode).toBe(201);
    const [, write] = port.movements.ledgerTransaction.mock.calls[0] ?? [];
    const effectiveAt = ctx.now.toISOString();
    expect(write?.legs.map((l) => [l.entry.type, l.entry.paymentId, l.guard])).toEqual([
      [
        'ledger_debit',
        'p',
        {
          ownerId: 'alice',
          currency: 'EUR',
          requireOpen: true,
          effectiveAt,
          requireAvailableAtLeast: 5,
        },
      ],
      [
        'ledger_credit',
        undefined,
        { ownerId: 'alice', currency: 'EUR', requireOpen: true, effectiveAt, increaseBy: 5 },
      ],
    ]);
    expect(write?.legs.every((l) => l.entry.ledgerTransactionId === write.record.id)).toBe(true);
    expect(port.getAccounts).not.toHaveBeenCalled();
  });

  it('refuses unbalanced legs as legs_unbalanced, reading the accounts but writing nothing', async () => {
    const port = fakePorts({
      getAccounts: async (ids) => ids.map((id) => account(id)),
    });
    await expect(
      service(port).createLedgerTransaction(ctx, input([5, 4]), {}),
    ).rejects.toMatchObject({ code: 'legs_unbalanced' });
    expect(port.movements.ledgerTransaction).not.toHaveBeenCalled();
    expect(port.recordResponse).not.toHaveBeenCalled();
  });

  it('answers an unbalanced request with a foreign account 404 first, after the key check (§4)', async () => {
    const port = fakePorts({
      getAccounts: async () => [account('a'), account('b', 'bob')],
    });
    await expect(
      service(port).createLedgerTransaction(ctx, input([5, 4]), {}),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(port.findRecord).toHaveBeenCalledOnce();
    const stored = { fingerprint: 'other', statusCode: 201, body: '{}', expiresAt: 1 };
    const reused = fakePorts({
      getAccounts: async () => [undefined, undefined],
      findRecord: async () => stored,
    });
    await expect(
      service(reused).createLedgerTransaction(ctx, input([5, 4]), {}),
    ).rejects.toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('records a refusal the accounts gave, and not a 404', async () => {
    const short = fakePorts({
      ledgerTransaction: async () => ({
        kind: 'legs_rejected',
        legs: [{ index: 0, account: account('a') }],
      }),
    });
    const res = await service(short).createLedgerTransaction(ctx, input([5, 5]), {});
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'insufficient_funds' });
    expect(short.recordResponse).toHaveBeenCalledOnce();
    const missing = fakePorts({
      ledgerTransaction: async () => ({
        kind: 'legs_rejected',
        legs: [{ index: 1, account: undefined }],
      }),
    });
    await expect(
      service(missing).createLedgerTransaction(ctx, input([5, 5]), {}),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(missing.recordResponse).not.toHaveBeenCalled();
  });

  it('shows reversedAmount on a read, 0 until reversed; not_found for another owner', async () => {
    const record = {
      id: 'l1',
      currency: 'EUR',
      legs: [],
      createdAt: 'x',
      effectiveAt: 'x',
      ownerId: 'alice',
      origin: 'http' as const,
    };
    const port = fakePorts({ getLedgerTransaction: async () => record });
    expect(await service(port).getLedgerTransaction('alice', 'l1')).toMatchObject({
      reversedAmount: 0,
    });
    await expect(service(port).getLedgerTransaction('bob', 'l1')).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

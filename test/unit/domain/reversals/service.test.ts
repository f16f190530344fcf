import { describe, expect, it } from 'vitest';
import { httpResponses } from '../../../../functions/api/problems';
import type { AccountRecord, LedgerEntry } from '../../../../functions/domain/accounts/model';
import type { ReversalPort } from '../../../../functions/domain/reversals/port';
import { ReversalService } from '../../../../functions/domain/reversals/service';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';
import { fakeReversalPort } from '../../../support/fakes/ledger/reversals';

/** docs/contract.md §16: the decisions of a reversal, on a fake port. */
const ctx = { principal: 'alice', idempotencyKey: 'k', now: new Date('2026-12-01T10:00:00Z') };
/** The reads, and the movement port's `reverse` that writes a reversal (docs/contract.md §23). */
const fakePorts = (overrides: Partial<ReversalPort> = {}) => {
  const movements = fakeMovementPort();
  return Object.assign(fakeReversalPort(overrides), { movements, reverse: movements.reverse });
};
const service = (port: ReturnType<typeof fakePorts>) =>
  new ReversalService(port, port.movements, {
    idempotencyRetentionSeconds: 60,
    responses: httpResponses,

    newId: () => crypto.randomUUID(),
  });
const account: AccountRecord = {
  id: 'a',
  ownerId: 'alice',
  currency: 'EUR',
  balance: 100,
  available: 100,
  overdraftLimit: 0,
  status: 'open',
  creditIntake: 'direct' as const,
  version: 0,
  createdAt: 'x',
  updatedAt: 'x',
};
const credit = (overrides: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: 'e',
  accountId: 'a',
  type: 'credit',
  amount: 100,
  currency: 'EUR',
  origin: 'http',
  createdAt: 'x',
  effectiveAt: 'x',
  ...overrides,
});
const found = (entry: LedgerEntry) => async () => ({
  account,
  found: { entry, pointer: true },
});
const params = { accountId: 'a', entryId: 'e' };
const codeOf = (res: { body: string }) => JSON.parse(res.body).code;

describe('ReversalService', () => {
  it('moves a credit back as one debit leg of the same account, guarded on its cover', async () => {
    const port = fakePorts({ findEntry: found(credit({ reversedAmount: 30 })) });
    const res = await service(port).reverseEntry(ctx, params, {}, {});
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({
      amount: 70,
      reversalOf: { kind: 'entry', id: 'e' },
    });
    const [, write] = port.reverse.mock.calls[0] ?? [];
    expect(write?.original).toMatchObject({ amount: 100, reversing: 70 });
    expect(write?.legs.map((l) => [l.entry.type, l.entry.direction, l.entry.amount])).toEqual([
      ['reversal', 'debit', 70],
    ]);
    expect(write?.legs[0]?.guard).toMatchObject({ requireAvailableAtLeast: 70, requireOpen: true });
  });

  it.each([
    ['a reversal', credit({ type: 'reversal', direction: 'credit' })],
    ['a transfer leg', credit({ type: 'transfer_in' })],
    ['a ledger leg', credit({ type: 'ledger_credit' })],
  ])('records not_reversible for %s, without a write', async (_name, entry) => {
    const port = fakePorts({ findEntry: found(entry) });
    const res = await service(port).reverseEntry(ctx, params, {}, {});
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'not_reversible']);
    expect(port.reverse).not.toHaveBeenCalled();
    expect(port.recordResponse).toHaveBeenCalledOnce();
  });

  it('records reversal_exceeds_original from the read: above what is left, or nothing left', async () => {
    const port = fakePorts({ findEntry: found(credit({ reversedAmount: 60 })) });
    const over = await service(port).reverseEntry(ctx, params, { amount: 41 }, {});
    expect([over.statusCode, codeOf(over)]).toEqual([409, 'reversal_exceeds_original']);
    const done = fakePorts({ findEntry: found(credit({ reversedAmount: 100 })) });
    const rest = await service(done).reverseEntry(ctx, params, {}, {});
    expect(codeOf(rest)).toBe('reversal_exceeds_original');
    expect(port.reverse).not.toHaveBeenCalled();
  });

  it('answers 404, unrecorded, for no entry or a foreign account (after the key check)', async () => {
    for (const port of [
      fakePorts({ findEntry: async () => ({ account }) }),
      fakePorts({ findEntry: async () => ({ account: { ...account, ownerId: 'bob' } }) }),
    ]) {
      await expect(service(port).reverseEntry(ctx, params, {}, {})).rejects.toMatchObject({
        code: 'not_found',
      });
      expect(port.findRecord).toHaveBeenCalledOnce();
      expect(port.recordResponse).not.toHaveBeenCalled();
    }
  });

  it('reads again when a defaulted amount lost part of the rest to a racing reversal', async () => {
    const reads = [credit({ reversedAmount: 0 }), credit({ reversedAmount: 40 })];
    const port = fakePorts({
      findEntry: async () => ({
        account,
        found: { entry: reads.shift() ?? credit(), pointer: true },
      }),
    });
    port.reverse
      .mockResolvedValueOnce({ kind: 'reversal_rejected', legs: [], reversedAmount: 40 })
      .mockResolvedValueOnce({ kind: 'committed' });
    const res = await service(port).reverseEntry(ctx, params, {}, {});
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body).amount).toBe(60);
    expect(port.findEntry).toHaveBeenCalledTimes(2);
  });

  it('refuses an explicit amount the racing reversal left no room for', async () => {
    const port = fakePorts({ findEntry: found(credit()) });
    port.reverse.mockResolvedValueOnce({ kind: 'reversal_rejected', legs: [], reversedAmount: 80 });
    const res = await service(port).reverseEntry(ctx, params, { amount: 30 }, {});
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'reversal_exceeds_original']);
    expect(JSON.parse(res.body).detail).toContain('20');
  });

  it('judges a moved account before the guard, and the accounts after it', async () => {
    const port = fakePorts({ findEntry: found(credit()) });
    port.reverse.mockResolvedValueOnce({
      kind: 'reversal_rejected',
      legs: [{ index: 0, account: { ...account, ownerId: 'bob' } }],
      reversedAmount: 100,
    });
    await expect(service(port).reverseEntry(ctx, params, { amount: 5 }, {})).rejects.toMatchObject({
      code: 'not_found',
    });
    const poor = fakePorts({ findEntry: found(credit()) });
    poor.reverse.mockResolvedValueOnce({
      kind: 'reversal_rejected',
      legs: [{ index: 0, account: { ...account, available: 1 } }],
    });
    const res = await service(poor).reverseEntry(ctx, params, { amount: 5 }, {});
    expect(codeOf(res)).toBe('insufficient_funds');
  });

  it('reverses a transfer on both legs and a ledger transaction whole, with their ids', async () => {
    const transfer = {
      id: 't',
      fromAccountId: 'a',
      toAccountId: 'b',
      amount: 50,
      currency: 'EUR',
      createdAt: 'x',
      effectiveAt: 'x',
      ownerId: 'alice',
      origin: 'http' as const,
    };
    const port = fakePorts({ getTransfer: async () => transfer });
    expect((await service(port).reverseTransfer(ctx, 't', { amount: 20 }, {})).statusCode).toBe(
      201,
    );
    const [, write] = port.reverse.mock.calls[0] ?? [];
    expect(
      write?.legs.map((l) => [
        l.entry.accountId,
        l.entry.direction,
        l.entry.amount,
        l.entry.transferId,
      ]),
    ).toEqual([
      ['a', 'credit', 20, 't'],
      ['b', 'debit', 20, 't'],
    ]);
    const record = {
      id: 'l',
      currency: 'EUR',
      legs: [
        { accountId: 'a', direction: 'debit' as const, amount: 30, entryId: 'x' },
        { accountId: 'b', direction: 'credit' as const, amount: 20, entryId: 'y' },
        { accountId: 'c', direction: 'credit' as const, amount: 10, entryId: 'z' },
      ],
      createdAt: 'x',
      effectiveAt: 'x',
      ownerId: 'alice',
      origin: 'http' as const,
    };
    const ledger = fakePorts({ getLedgerTransaction: async () => record });
    const res = await service(ledger).reverseLedgerTransaction(ctx, 'l', {}, {});
    expect(JSON.parse(res.body).amount).toBe(30);
    const [, whole] = ledger.reverse.mock.calls[0] ?? [];
    expect(
      whole?.legs.map((l) => [l.entry.direction, l.entry.amount, l.entry.ledgerTransactionId]),
    ).toEqual([
      ['credit', 30, 'l'],
      ['debit', 20, 'l'],
      ['debit', 10, 'l'],
    ]);
    await expect(
      service(ledger).reverseLedgerTransaction({ ...ctx, principal: 'bob' }, 'l', {}, {}),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { signedAmount } from '../../../../functions/domain/accounts/model';
import type { BatchOperation, PlannedMovement } from '../../../../functions/domain/batches/model';
import type { IdempotencyRecord } from '../../../../functions/domain/idempotency/model';
import type { MovementLeg } from '../../../../functions/domain/movements/legs';
import {
  IdempotencyKeyInUseError,
  InternalError,
  UnavailableError,
} from '../../../../functions/domain/shared/errors';
import { batchServiceOn, fakeBatchPort } from '../../../support/fakes/ledger/batches';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

/** docs/contract.md §25: how an independent batch writes and falls back. */
const ctx = {
  principal: 'alice',
  idempotencyKey: 'batch-1',
  now: new Date('2026-12-01T10:00:00Z'),
};
const credit = (key: string, amount = 1): BatchOperation => ({
  op: 'credit',
  key,
  accountId: 'a',
  input: { type: 'credit', amount, currency: 'EUR' },
  rawBody: { type: 'credit', amount, currency: 'EUR' },
});

const statuses = (body: string) =>
  (JSON.parse(body) as { results: { status: number }[] }).results.map((r) => r.status);

describe('an independent batch', () => {
  it('writes one account’s postings in shared transactions and records its answer last', async () => {
    const { service, batches, ledger } = batchServiceOn();
    const operations = Array.from({ length: 31 }, (_, i) => credit(`k${i}`));
    const answer = await service.createBatch(ctx, { mode: 'independent', operations }, {});
    expect(statuses(answer.body)).toEqual(Array(31).fill(201));
    expect(batches.writeMovements.mock.calls.map(([movements]) => movements.length)).toEqual([30]);
    // A chunk of one is the single route's own write.
    expect(ledger.post).toHaveBeenCalledTimes(1);
    expect(batches.recordResponse).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'refused',
      async () => ({
        kind: 'refused' as const,
        claimed: new Map(),
        accounts: new Map(),
        gates: new Map(),
        payments: new Set<number>(),
      }),
    ],
    ['contended to the end', async () => Promise.reject(new IdempotencyKeyInUseError())],
    ['unavailable', async () => Promise.reject(new UnavailableError())],
  ])('falls back to the single route one by one when the shared write is %s', async (_, write) => {
    const { service, ledger } = batchServiceOn(fakeBatchPort({ writeMovements: write }));
    const answer = await service.createBatch(
      ctx,
      { mode: 'independent', operations: [credit('x'), credit('y')] },
      {},
    );
    expect(statuses(answer.body)).toEqual([201, 201]);
    expect(ledger.post.mock.calls.map(([once]) => once.kind)).toHaveLength(2);
  });

  it('never records a 5xx as an operation’s result: an unexpected failure stands as 503', async () => {
    let posts = 0;
    const ledger = fakeMovementPort({
      post: async () => {
        posts += 1;
        if (posts === 1) throw new InternalError(new Error('rules and storage disagree'));
        return { kind: 'committed' };
      },
    });
    const { service, batches } = batchServiceOn(fakeBatchPort(), ledger);
    const operations = [credit('x'), { ...credit('y'), accountId: 'b' }];
    const answer = await service.createBatch(ctx, { mode: 'independent', operations }, {});
    expect(statuses(answer.body)).toEqual([503, 201]);
    const recorded = batches.recordResponse.mock.calls[0]?.[0].response;
    expect(recorded && statuses(recorded.body)).toEqual([503, 201]);
  });

  it('answers 503 for an operation not started before the one deadline, recording nothing for it', async () => {
    let now = 0;
    const ledger = fakeMovementPort({
      post: async () => {
        now += 20_000;
        return { kind: 'committed' };
      },
    });
    const { service } = batchServiceOn(
      fakeBatchPort({ writeMovements: async () => Promise.reject(new UnavailableError()) }),
      ledger,
      () => now,
    );
    const answer = await service.createBatch(
      ctx,
      { mode: 'independent', operations: [credit('x'), credit('y')] },
      {},
    );
    expect(statuses(answer.body)).toEqual([201, 503]);
    expect(ledger.post).toHaveBeenCalledTimes(1);
  });
});

describe('an atomic batch', () => {
  const debit = (key: string, amount: number): BatchOperation => ({
    op: 'credit',
    key,
    accountId: 'a',
    input: { type: 'debit', amount, currency: 'EUR' },
    rawBody: { type: 'debit', amount, currency: 'EUR' },
  });
  const stood = {
    id: 'a',
    ownerId: 'alice',
    currency: 'EUR',
    balance: 30,
    available: 30,
    overdraftLimit: 0,
    status: 'open' as const,
    creditIntake: 'direct' as const,
    version: 3,
    createdAt: 'x',
    updatedAt: 'x',
  };

  /**
   * Account `a` as `stood`, and records under the keys of the operations of these amounts: a
   * write refused as the table refuses it (every claim held, the account's guard on the
   * largest running draw-down of all the write's legs, the probe never holding).
   */
  function tableWith(held: ReadonlyMap<number, 'replay' | 'reused'>) {
    return fakeBatchPort({
      writeMovements: vi.fn(async (movements: readonly PlannedMovement[], options) => {
        const claimed = new Map<number, IdempotencyRecord>();
        let running = 0;
        let drawdown = 0;
        for (const [i, movement] of movements.entries()) {
          const entry = (movement.legs[0] as MovementLeg).entry;
          const kind = held.get(entry.amount);
          if (kind === 'replay') claimed.set(i, replayOf(movement));
          if (kind === 'reused') claimed.set(i, { ...replayOf(movement), fingerprint: 'other' });
          running += signedAmount(entry);
          drawdown = Math.max(drawdown, -running);
        }
        const accounts = new Map(drawdown > stood.available ? [['a', stood]] : []);
        if (claimed.size === 0 && accounts.size === 0 && !options.probe) {
          return { kind: 'committed' as const };
        }
        const refused = { claimed, accounts, gates: new Map(), payments: new Set<number>() };
        return { kind: 'refused' as const, ...refused };
      }),
    });
  }
  const rejection = (body: string) => {
    const parsed = JSON.parse(body) as {
      code: string;
      failedOperation: number;
      cause: { code: string };
    };
    return [parsed.code, parsed.failedOperation, parsed.cause.code];
  };

  it('leaves a replayed operation out of the walk: its money moved before, not in this write', async () => {
    // The debit of 40 under k0 applied earlier (30 is what is left); the write of k0 and k1 is
    // refused on k0's claim and on the account's guard (40 + 20 > 30). Only k1 moves money now.
    const batches = tableWith(new Map([[40, 'replay']]));
    const { service } = batchServiceOn(batches);
    const answer = await service.createBatch(
      ctx,
      { mode: 'atomic', operations: [debit('k0', 40), debit('k1', 20)] },
      {},
    );
    expect(answer.statusCode).toBe(200);
    expect(statuses(answer.body)).toEqual([201, 201]);
    const [, second] = batches.writeMovements.mock.calls;
    expect(second?.[0]).toHaveLength(1);
  });

  it('still names the first operation that moves money and fails', async () => {
    const batches = tableWith(new Map([[40, 'replay']]));
    const { service } = batchServiceOn(batches);
    const answer = await service.createBatch(
      ctx,
      { mode: 'atomic', operations: [debit('k0', 40), debit('k1', 20), debit('k2', 21)] },
      {},
    );
    expect(answer.statusCode).toBe(409);
    expect(rejection(answer.body)).toEqual(['batch_rejected', 2, 'insufficient_funds']);
  });

  it('names a debit that dips below zero before a reused key, once a replay’s credit is left out', async () => {
    // The fault model's counterexample (seed -2108332527): k1's credit of 46 applied before, so
    // the first write's guard counted it and held; k3 reuses its key with another body. In
    // request order without k1, k2's debit finds 30 - 16 = 14 left: it fails first.
    const held = new Map([
      [46, 'replay'],
      [21, 'reused'],
    ] as const);
    const { service } = batchServiceOn(tableWith(held));
    const operations = [debit('k0', 16), credit('k1', 46), debit('k2', 16), debit('k3', 21)];
    const answer = await service.createBatch(
      ctx,
      { mode: 'atomic', operations: [...operations, credit('k4', 30)] },
      {},
    );
    expect(answer.statusCode).toBe(409);
    expect(rejection(answer.body)).toEqual(['batch_rejected', 2, 'insufficient_funds']);
  });
});

function replayOf(movement: PlannedMovement) {
  const { fingerprint, response } = movement.claim;
  return { fingerprint, expiresAt: 2e9, ...response };
}

import { describe, expect, it, vi } from 'vitest';
import { batchResponses } from '../../../../functions/api/batches/routes';
import { httpResponses } from '../../../../functions/api/problems';
import { LedgerService } from '../../../../functions/domain/accounts/service';
import type { BatchOperation, PlannedMovement } from '../../../../functions/domain/batches/model';
import { BatchService } from '../../../../functions/domain/batches/service';
import { LedgerTransactionService } from '../../../../functions/domain/ledger-transactions/service';
import {
  IdempotencyKeyInUseError,
  UnavailableError,
} from '../../../../functions/domain/shared/errors';
import { TransferService } from '../../../../functions/domain/transfers/service';
import { fakeLedgerPort } from '../../../support/fakes/ledger/accounts';
import { fakeBatchPort } from '../../../support/fakes/ledger/batches';
import { fakeLedgerTransactionPort } from '../../../support/fakes/ledger/ledger-transactions';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';
import { fakeTransferPort } from '../../../support/fakes/ledger/transfers';

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

function setup(batches = fakeBatchPort(), ledger = fakeMovementPort(), now = () => 0) {
  let ids = 0;
  const options = {
    idempotencyRetentionSeconds: 60,
    responses: httpResponses,
    newId: () => `id-${++ids}`,
    backdateLimitDays: 90,
  };
  const service = new BatchService(
    batches,
    {
      postings: new LedgerService(fakeLedgerPort(), ledger, options),
      transfers: new TransferService(fakeTransferPort(), fakeMovementPort(), options),
      ledgerTransactions: new LedgerTransactionService(
        fakeLedgerTransactionPort(),
        fakeMovementPort(),
        options,
      ),
    },
    { ...options, presenter: batchResponses, now },
  );
  return { service, batches, ledger };
}

const statuses = (body: string) =>
  (JSON.parse(body) as { results: { status: number }[] }).results.map((r) => r.status);

describe('an independent batch', () => {
  it('writes one account’s postings in shared transactions and records its answer last', async () => {
    const { service, batches, ledger } = setup();
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
        payments: new Set<number>(),
      }),
    ],
    ['contended to the end', async () => Promise.reject(new IdempotencyKeyInUseError())],
    ['unavailable', async () => Promise.reject(new UnavailableError())],
  ])('falls back to the single route one by one when the shared write is %s', async (_, write) => {
    const { service, ledger } = setup(fakeBatchPort({ writeMovements: write }));
    const answer = await service.createBatch(
      ctx,
      { mode: 'independent', operations: [credit('x'), credit('y')] },
      {},
    );
    expect(statuses(answer.body)).toEqual([201, 201]);
    expect(ledger.post.mock.calls.map(([once]) => once.kind)).toHaveLength(2);
  });

  it('answers 503 for an operation not started before the one deadline, recording nothing for it', async () => {
    let now = 0;
    const ledger = fakeMovementPort({
      post: async () => {
        now += 20_000;
        return { kind: 'committed' };
      },
    });
    const { service } = setup(
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
    version: 3,
    createdAt: 'x',
    updatedAt: 'x',
  };

  it('leaves a replayed operation out of the walk: its money moved before, not in this write', async () => {
    // The debit of 40 under k0 applied earlier (30 is what is left); the write of k0 and k1 is
    // refused on k0's claim and on the account's guard (40 + 20 > 30). Only k1 moves money now.
    const batches = fakeBatchPort({
      writeMovements: vi
        .fn()
        .mockImplementationOnce(async (movements: readonly PlannedMovement[]) => ({
          kind: 'refused',
          claimed: new Map([
            [0, { ...replayOf(movements[0] as PlannedMovement), statusCode: 201 }],
          ]),
          accounts: new Map([['a', stood]]),
          payments: new Set<number>(),
        }))
        .mockImplementation(async () => ({ kind: 'committed' })),
    });
    const { service } = setup(batches);
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
    const batches = fakeBatchPort({
      writeMovements: async (movements) => ({
        kind: 'refused',
        claimed: new Map([[0, replayOf(movements[0] as PlannedMovement)]]),
        accounts: new Map([['a', stood]]),
        payments: new Set<number>(),
      }),
    });
    const { service } = setup(batches);
    const answer = await service.createBatch(
      ctx,
      { mode: 'atomic', operations: [debit('k0', 40), debit('k1', 20), debit('k2', 20)] },
      {},
    );
    const body = JSON.parse(answer.body) as { code: string; failedOperation: number };
    expect([answer.statusCode, body.code, body.failedOperation]).toEqual([
      409,
      'batch_rejected',
      2,
    ]);
  });
});

function replayOf(movement: PlannedMovement) {
  const { fingerprint, response } = movement.claim;
  return { fingerprint, expiresAt: 2e9, ...response };
}

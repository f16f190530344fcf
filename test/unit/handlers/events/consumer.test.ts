import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type { EventLedgerPort } from '../../../../functions/domain/events/port';
import { EventService } from '../../../../functions/domain/events/service';
import type { MovementWrite, Once } from '../../../../functions/domain/movements/once';
import type { MovementPort } from '../../../../functions/domain/movements/port';
import type { PostingRejection } from '../../../../functions/domain/movements/rejections';
import { createEventsConsumer } from '../../../../functions/handlers/events/consumer';
import { lanesOf } from '../../../../functions/handlers/events/lanes';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../../kit/ledger-events';
import { fakeDeadLetters, fakeEventLedgerPort } from '../../../support/fakes/events';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';
import { recordingLog } from '../../../support/fakes/log';
import { quietRuntime } from '../../../support/runtime';

const A = '44444444-4444-4444-8444-444444444444';
const B = '55555555-5555-4555-8555-555555555555';

type EventWriteResult = MovementWrite<PostingRejection>;
/** The (source, id) an inbox claim names. */
const inboxId = (once: Once) => (once.kind === 'inbox' ? once.claim.id : '');

function harness(write: (accountId: string) => Promise<EventWriteResult>) {
  const deadLetters = fakeDeadLetters();
  const log = recordingLog();
  const movements = fakeMovementPort({ post: async (_once, { entry }) => write(entry.accountId) });
  const port = fakeEventLedgerPort({
    // A batched write of an account's records answers as its write would, whole.
    applyEventRun: async (run) =>
      (await write(run.accountId)).kind === 'committed'
        ? { kind: 'committed' }
        : { kind: 'refused' },
  });
  const handle = createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(port, movements, {
      newId: randomUUID,
      inboxRetentionSeconds: 60,
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: 90,
      sleep: async () => {},
    }),
    deadLetters,
    log,
  });
  return { handle, letters: deadLetters.letters, log };
}

describe('events consumer', () => {
  it('runs one account in order and different accounts concurrently', async () => {
    const running = new Map<string, number>();
    let maxSameAccount = 0;
    let maxOverall = 0;
    const { handle } = harness(async (accountId) => {
      running.set(accountId, (running.get(accountId) ?? 0) + 1);
      maxSameAccount = Math.max(maxSameAccount, running.get(accountId) ?? 0);
      maxOverall = Math.max(
        maxOverall,
        [...running.values()].reduce((a, b) => a + b, 0),
      );
      await new Promise((r) => setTimeout(r, 5));
      running.set(accountId, (running.get(accountId) ?? 1) - 1);
      return { kind: 'committed' };
    });
    const records = [A, B, A, B, A].map((subject) => sqsRecord(ledgerEvent({ subject })));
    expect(await handle(sqsEvent(...records))).toEqual({ batchItemFailures: [] });
    expect(maxSameAccount).toBe(1);
    expect(maxOverall).toBe(2);
  });

  it('reports only the records whose write threw, and logs why', async () => {
    const { handle, log } = harness(async (accountId) => {
      if (accountId === B) throw new Error('throttled');
      return { kind: 'committed' };
    });
    const res = await handle(
      sqsEvent(
        sqsRecord(ledgerEvent({ subject: A }), 'a'),
        sqsRecord(ledgerEvent({ subject: B }), 'b'),
      ),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'b' }]);
    expect(log.error).toHaveBeenCalledWith(
      'ledger event failed; will be redelivered',
      expect.objectContaining({ messageId: 'b', errorMessage: 'throttled' }),
    );
  });

  it.each<[EventWriteResult, string]>([
    [{ kind: 'account_rejected', account: undefined }, 'unknown_account'],
    [
      {
        kind: 'account_rejected',
        account: {
          id: A,
          ownerId: 'o',
          currency: 'USD',
          balance: 0,
          available: 0,
          overdraftLimit: 0,
          status: 'open' as const,
          creditIntake: 'direct' as const,
          version: 0,
          createdAt: '',
          updatedAt: '',
        },
      },
      'currency_mismatch',
    ],
    [{ kind: 'payment_id_taken' }, 'payment_id_conflict'],
  ])('dead-letters %j as %s and acknowledges it', async (result, code) => {
    const { handle, letters } = harness(async () => result);
    const body = JSON.stringify(ledgerEvent({ subject: A, paymentId: 'p' }));
    const res = await handle(sqsEvent(sqsRecord(body, 'm')));
    expect(res.batchItemFailures).toEqual([]);
    expect(letters).toEqual([{ body, code, detail: expect.any(String), sourceMessageId: 'm' }]);
  });

  it('dead-letters an overdraft as insufficient_funds', async () => {
    const { handle, letters } = harness(async () => ({
      kind: 'account_rejected',
      account: {
        id: A,
        ownerId: 'o',
        currency: 'EUR',
        balance: 5,
        available: 5,
        overdraftLimit: 0,
        status: 'open' as const,
        creditIntake: 'direct' as const,
        version: 0,
        createdAt: '',
        updatedAt: '',
      },
    }));
    await handle(
      sqsEvent(sqsRecord(ledgerEvent({ subject: A, type: 'ledger.debit.v1', amount: 6 }))),
    );
    expect(letters.map((l) => l.code)).toEqual(['insufficient_funds']);
  });

  it('retries, never dead-letters, when the account guard fails on a state that satisfies it', async () => {
    const { handle, letters } = harness(async () => ({
      kind: 'account_rejected',
      account: {
        id: A,
        ownerId: 'o',
        currency: 'EUR',
        balance: 500,
        available: 500,
        overdraftLimit: 0,
        status: 'open' as const,
        creditIntake: 'direct' as const,
        version: 0,
        createdAt: '',
        updatedAt: '',
      },
    }));
    const res = await handle(sqsEvent(sqsRecord(ledgerEvent({ subject: A }), 'odd')));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'odd' }]);
    expect(letters).toEqual([]);
  });

  it('re-reads the sequence when another writer moved it, then gives up as transient', async () => {
    const write = vi
      .fn<(accountId: string) => Promise<EventWriteResult>>()
      .mockResolvedValueOnce({ kind: 'sequence_moved' })
      .mockResolvedValueOnce({ kind: 'committed' });
    const { handle } = harness(write);
    const ok = await handle(sqsEvent(sqsRecord(ledgerEvent({ subject: A, sequence: 2 }))));
    expect(ok.batchItemFailures).toEqual([]);
    expect(write).toHaveBeenCalledTimes(2);

    const { handle: stuck } = harness(async () => ({ kind: 'sequence_moved' }));
    const res = await stuck(sqsEvent(sqsRecord(ledgerEvent({ subject: A, sequence: 2 }), 's')));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 's' }]);
  });

  it('logs new gaps as a structured warning', async () => {
    const { handle, log } = harness(async () => ({ kind: 'committed' }));
    await handle(sqsEvent(sqsRecord(ledgerEvent({ id: 'e9', subject: A, sequence: 3 }))));
    expect(log.warn).toHaveBeenCalledWith(
      'sequence gap',
      expect.objectContaining({
        eventId: 'e9',
        eventSource: 'urn:producer:a',
        sequence: 3,
        missing: [1, 2],
      }),
    );
  });
});

describe('lanesOf: records that touch a common account share a lane', () => {
  const C = '66666666-6666-4666-8666-666666666666';
  const D = '77777777-7777-4777-8777-777777777777';
  const ids = (lanes: SQSRecord[][]) => lanes.map((lane) => lane.map((r) => r.messageId));

  it('joins the lanes of both accounts of a transfer, transitively, keeping batch order', () => {
    const records = [
      sqsRecord(ledgerEvent({ subject: A }), 'credit-a'),
      sqsRecord(ledgerEvent({ subject: C }), 'credit-c'),
      sqsRecord(ledgerEvent({ subject: B }), 'credit-b'),
      sqsRecord(ledgerEvent({ type: 'ledger.transfer.v1', subject: B, toAccountId: A }), 'b-to-a'),
      sqsRecord(ledgerEvent({ subject: D.toUpperCase() }), 'credit-d'),
      sqsRecord(ledgerEvent({ type: 'ledger.transfer.v1', subject: D, toAccountId: B }), 'd-to-b'),
      sqsRecord('not json', 'poison'),
    ];
    expect(ids(lanesOf(records))).toEqual([
      ['credit-a', 'credit-b', 'b-to-a', 'credit-d', 'd-to-b'],
      ['credit-c'],
      ['poison'],
    ]);
  });

  it("joins every leg's account of a ledger transaction (docs/contract.md §16)", () => {
    const legs = [
      { accountId: C, direction: 'debit' as const, amount: 2 },
      { accountId: A.toUpperCase(), direction: 'credit' as const, amount: 1 },
      { accountId: D, direction: 'credit' as const, amount: 1 },
    ];
    const records = [
      sqsRecord(ledgerEvent({ subject: A }), 'credit-a'),
      sqsRecord(ledgerEvent({ subject: B }), 'credit-b'),
      sqsRecord(ledgerEvent({ subject: D }), 'credit-d'),
      sqsRecord(ledgerEvent({ type: 'ledger.transaction.v1', subject: C, legs }), 'split'),
    ];
    expect(ids(lanesOf(records))).toEqual([['credit-a', 'credit-d', 'split'], ['credit-b']]);
  });
});

describe('events consumer: batched writes (docs/contract.md §20)', () => {
  const T = '88888888-8888-4888-8888-888888888888';
  function batched(
    overrides: Partial<EventLedgerPort> & Partial<MovementPort> = {},
    options: { batchWrites?: boolean; now?: () => number } = {},
  ) {
    const { post, transfer, ledgerTransaction, reverse, ...rest } = overrides;
    const movements = fakeMovementPort(
      Object.fromEntries(
        Object.entries({ post, transfer, ledgerTransaction, reverse }).filter(([, f]) => f),
      ),
    );
    const port = fakeEventLedgerPort({
      getAccount: async (id) => ({
        id,
        ownerId: 'o',
        currency: 'EUR',
        balance: 1_000,
        available: 1_000,
        overdraftLimit: 0,
        status: 'open' as const,
        creditIntake: 'direct' as const,
        createdAt: '',
        updatedAt: '',
        version: 0,
      }),
      ...rest,
    });
    const deadLetters = fakeDeadLetters();
    const handle = createEventsConsumer({
      ...quietRuntime(),
      events: new EventService(port, movements, {
        newId: randomUUID,
        inboxRetentionSeconds: 60,
        gapRefetchAfterSeconds: 300,
        backdateLimitDays: 90,
      }),
      deadLetters,
      ...options,
    });
    return { handle, port, movements, letters: deadLetters.letters };
  }
  const ids = (run: { records: readonly { claim: { id: string } }[] }) =>
    run.records.map((r) => r.claim.id);

  it('commits consecutive credits and debits of one account as one write, in order', async () => {
    const { handle, port, movements } = batched();
    const records = ['1', '2', '3', '4'].map((id, i) =>
      sqsRecord(
        ledgerEvent({ id, subject: A, type: i === 2 ? 'ledger.debit.v1' : 'ledger.credit.v1' }),
      ),
    );
    // A body that never parses touches no account: the run goes on across it.
    records.splice(2, 0, sqsRecord('not json'));
    expect(await handle(sqsEvent(...records))).toEqual({ batchItemFailures: [] });
    expect(port.applyEventRun.mock.calls.map(([run]) => ids(run))).toEqual([['1', '2', '3', '4']]);
    expect(movements.post).not.toHaveBeenCalled();
  });

  it('starts a new run at a transfer, and writes a lone record on its own', async () => {
    const { handle, port, movements } = batched();
    await handle(
      sqsEvent(
        sqsRecord(ledgerEvent({ id: '1', subject: A })),
        sqsRecord(ledgerEvent({ id: '2', subject: A })),
        sqsRecord(ledgerEvent({ id: 't', subject: A, type: 'ledger.transfer.v1', toAccountId: T })),
        sqsRecord(ledgerEvent({ id: '3', subject: A })),
      ),
    );
    expect(port.applyEventRun.mock.calls.map(([run]) => ids(run))).toEqual([['1', '2']]);
    expect(movements.transfer.mock.calls.map(([once]) => inboxId(once))).toEqual(['t']);
    expect(movements.post.mock.calls.map(([once]) => inboxId(once))).toEqual(['3']);
  });

  it('falls back to one by one when the run is refused: the same outcome per record', async () => {
    let balance = 50;
    const { handle, movements, letters } = batched({
      applyEventRun: async () => ({ kind: 'refused' }),
      post: async (once, { entry }) => {
        if (inboxId(once) === 'dup') return { kind: 'duplicate' };
        const delta = entry.type === 'credit' ? entry.amount : -entry.amount;
        if (balance + delta < 0) {
          return {
            kind: 'account_rejected',
            account: {
              id: A,
              ownerId: 'o',
              currency: 'EUR',
              balance,
              available: balance,
              overdraftLimit: 0,
              status: 'open' as const,
              creditIntake: 'direct' as const,
              createdAt: '',
              updatedAt: '',
              version: 0,
            },
          };
        }
        balance += delta;
        return { kind: 'committed' };
      },
    });
    const res = await handle(
      sqsEvent(
        sqsRecord(ledgerEvent({ id: 'a', subject: A, amount: 10 }), 'm-a'),
        sqsRecord(ledgerEvent({ id: 'dup', subject: A }), 'm-dup'),
        sqsRecord(
          ledgerEvent({ id: 'b', subject: A, type: 'ledger.debit.v1', amount: 100 }),
          'm-b',
        ),
        sqsRecord(ledgerEvent({ id: 'c', subject: A, amount: 5 }), 'm-c'),
      ),
    );
    expect(res.batchItemFailures).toEqual([]);
    expect(movements.post.mock.calls.map(([once]) => inboxId(once))).toEqual([
      'a',
      'dup',
      'b',
      'c',
    ]);
    expect(letters.map((l) => [l.sourceMessageId, l.code])).toEqual([
      ['m-b', 'insufficient_funds'],
    ]);
    expect(balance).toBe(65);
  });

  it('falls back when the batched write throws, and reports only what failed on its own', async () => {
    const { handle, movements } = batched({
      applyEventRun: async () => {
        throw new Error('throttled');
      },
      post: async (once) => {
        if (inboxId(once) === 'bad') throw new Error('still throttled');
        return { kind: 'committed' };
      },
    });
    const res = await handle(
      sqsEvent(
        sqsRecord(ledgerEvent({ id: 'ok', subject: A }), 'm-ok'),
        sqsRecord(ledgerEvent({ id: 'bad', subject: A }), 'm-bad'),
      ),
    );
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm-bad' }]);
    expect(movements.post).toHaveBeenCalledTimes(2);
  });

  it('writes every record on its own with batchWrites off (today’s path)', async () => {
    const { handle, port, movements } = batched({}, { batchWrites: false });
    await handle(
      sqsEvent(...['1', '2', '3'].map((id) => sqsRecord(ledgerEvent({ id, subject: A })))),
    );
    expect(port.applyEventRun).not.toHaveBeenCalled();
    expect(movements.post).toHaveBeenCalledTimes(3);
  });

  it('reports the records a lane has not started when the deadline passes, without writing them', async () => {
    let clock = 0;
    const { handle, movements } = batched(
      {
        post: async () => {
          clock += 5_000; // each write takes 5 s of the invocation's 10
          return { kind: 'committed' };
        },
      },
      { batchWrites: false, now: () => clock },
    );
    const res = await handle(
      sqsEvent(...['1', '2', '3', '4'].map((id) => sqsRecord(ledgerEvent({ id, subject: A }), id))),
      { getRemainingTimeInMillis: () => 10_000 },
    );
    // The deadline is 10 s less a margin of 2 s: two writes fit, the rest are redelivered.
    expect(movements.post).toHaveBeenCalledTimes(2);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: '3' }, { itemIdentifier: '4' }]);
  });
});

import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type { EventWriteResult } from '../../../../functions/domain/events/port';
import { EventService } from '../../../../functions/domain/events/service';
import { createEventsConsumer, lanesOf } from '../../../../functions/handlers/events/consumer';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../../kit/ledger-events';
import { fakeDeadLetters, fakeEventLedgerPort } from '../../../support/fakes/events';
import { recordingLog } from '../../../support/fakes/log';
import { quietRuntime } from '../../../support/runtime';

const A = '44444444-4444-4444-8444-444444444444';
const B = '55555555-5555-4555-8555-555555555555';

function harness(write: (accountId: string) => Promise<EventWriteResult>) {
  const deadLetters = fakeDeadLetters();
  const log = recordingLog();
  const port = fakeEventLedgerPort({
    applyEvent: async (_claim, entry) => write(entry.accountId),
  });
  const handle = createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(port, {
      newId: randomUUID,
      inboxRetentionSeconds: 60,
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
});

import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { EventService } from '../../../../functions/domain/events/service';
import { createEventsConsumer } from '../../../../functions/handlers/events/consumer';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../../kit/ledger-events';
import { fakeDeadLetters, fakeEventLedgerPort } from '../../../support/fakes/events';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';
import { quietRuntime } from '../../../support/runtime';

const A = '44444444-4444-4444-8444-444444444444';

/** A record on its `receives`-th receive. */
function received(receives: number, messageId: string): SQSRecord {
  const record = sqsRecord(ledgerEvent({ subject: A, amount: 5 }), messageId);
  return {
    ...record,
    attributes: { ...record.attributes, ApproximateReceiveCount: String(receives) },
  };
}

/** Every write fails transiently (storage throttled); the DLQ answers as `dlqDown` says. */
function throttled(dlqDown = false) {
  const deadLetters = fakeDeadLetters(
    dlqDown
      ? {
          send: async () => {
            throw new Error('SQS unreachable');
          },
        }
      : {},
  );
  const fail = async (): Promise<never> => {
    throw new Error('ProvisionedThroughputExceeded');
  };
  const handle = createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(
      fakeEventLedgerPort({ applyEventRun: fail }),
      fakeMovementPort({ post: fail }),
      {
        newId: randomUUID,
        inboxRetentionSeconds: 60,
        gapRefetchAfterSeconds: 300,
        backdateLimitDays: 90,
        sleep: async () => {},
      },
    ),
    deadLetters,
  });
  return { handle, letters: deadLetters.letters };
}

describe('a record whose receives ran out (docs/contract.md §6)', () => {
  it('is redelivered before its last receive, dead-lettered receives_exhausted on it', async () => {
    const { handle, letters } = throttled();
    const answer = await handle(sqsEvent(received(4, 'fourth'), received(5, 'fifth')));
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'fourth' }]);
    expect(letters.map((l) => [l.sourceMessageId, l.code])).toEqual([
      ['fifth', 'receives_exhausted'],
    ]);
    expect(letters[0]?.detail).toMatch(/no receive of 5 could apply it/);
  });

  it('is left to SQS when the DLQ cannot be reached (never dropped)', async () => {
    const { handle, letters } = throttled(true);
    const answer = await handle(sqsEvent(received(5, 'fifth')));
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'fifth' }]);
    expect(letters).toEqual([]);
  });
});

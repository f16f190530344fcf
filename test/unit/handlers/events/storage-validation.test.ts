import { randomUUID } from 'node:crypto';
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { expect, it } from 'vitest';
import { EventService } from '../../../../functions/domain/events/service';
import { METRICS } from '../../../../functions/domain/shared/metrics';
import { storageError } from '../../../../functions/dynamodb/table/sdk-errors';
import { createEventsConsumer } from '../../../../functions/handlers/events/consumer';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../../kit/ledger-events';
import { fakeDeadLetters, fakeEventLedgerPort } from '../../../support/fakes/events';
import { recordingLog } from '../../../support/fakes/log';
import { recordingMetrics } from '../../../support/fakes/metrics';
import { fakeMovementPort } from '../../../support/fakes/movements';
import { quietRuntime } from '../../../support/runtime';

/**
 * A DynamoDB ValidationException the schema did not foresee is our bug, not the producer's
 * (docs/contract.md §6): the event stays transient (redelivered, never dead-lettered at once),
 * the failure is logged as such and counted for the alarm.
 */
it('redelivers an event DynamoDB refused as invalid, logs it and counts StorageValidationError', async () => {
  const refused = new DynamoDBServiceException({
    name: 'ValidationException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message:
      'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit',
  });
  const deadLetters = fakeDeadLetters();
  const log = recordingLog();
  const metrics = recordingMetrics();
  const handle = createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(
      fakeEventLedgerPort(),
      fakeMovementPort({
        post: async () => {
          throw storageError(refused);
        },
      }),
      {
        newId: randomUUID,
        inboxRetentionSeconds: 60,
        gapRefetchAfterSeconds: 300,
        backdateLimitDays: 90,
      },
    ),
    deadLetters,
    log,
    metrics,
  });
  const subject = '44444444-4444-4444-8444-444444444444';
  const res = await handle(sqsEvent(sqsRecord(ledgerEvent({ subject }), 'm1')));
  expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  expect(deadLetters.letters).toEqual([]);
  expect(metrics.counts.get(METRICS.storageValidationError)).toBe(1);
  expect(log.error).toHaveBeenCalledWith(
    expect.stringContaining('refused'),
    expect.objectContaining({ messageId: 'm1', errorName: 'ValidationException' }),
  );
});

it('does not count other storage failures as validation errors', async () => {
  const metrics = recordingMetrics();
  const handle = createEventsConsumer({
    ...quietRuntime(),
    events: new EventService(
      fakeEventLedgerPort(),
      fakeMovementPort({
        post: async () => {
          throw new Error('throttled');
        },
      }),
      {
        newId: randomUUID,
        inboxRetentionSeconds: 60,
        gapRefetchAfterSeconds: 300,
        backdateLimitDays: 90,
      },
    ),
    deadLetters: fakeDeadLetters(),
    metrics,
  });
  const subject = '44444444-4444-4444-8444-444444444444';
  await handle(sqsEvent(sqsRecord(ledgerEvent({ subject }), 'm2')));
  expect(metrics.counts.get(METRICS.storageValidationError)).toBeUndefined();
});

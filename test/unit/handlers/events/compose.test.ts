import { randomUUID } from 'node:crypto';
import {
  DynamoDBClient,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, expect, it } from 'vitest';
import { silentLog } from '../../../../functions/domain/shared/log';
import { composeEventsHandler } from '../../../../functions/handlers/events/compose';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../../kit/ledger-events';
import { testConfig } from '../../../support/config';
import { recordingMetrics } from '../../../support/fakes/metrics';

const ddb = mockClient(DynamoDBClient);
const sqs = mockClient(SQSClient);
beforeEach(() => {
  ddb.reset();
  sqs.reset();
});

const DLQ_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/ledger-events-dlq';
/** The composition the Lambda handler and the local stack both run. */
function compose() {
  const metrics = recordingMetrics();
  const handle = composeEventsHandler({
    config: {
      ...testConfig(),
      deadLetterQueueUrl: DLQ_URL,
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: 90,
    },
    dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
    sqs: new SQSClient({ region: 'eu-west-1' }),
    retry: { sleep: async () => {} },
    log: silentLog,
    metrics,
  });
  return { handle, metrics };
}

it('counts a transaction retry: the store is wired to the metrics', async () => {
  const { handle, metrics } = compose();
  ddb
    .on(TransactWriteItemsCommand)
    .rejectsOnce(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'TransactionConflict' }],
      }),
    )
    .resolves({});

  const res = await handle(sqsEvent(sqsRecord(ledgerEvent({ subject: randomUUID() }))));

  expect(res.batchItemFailures).toEqual([]);
  expect(metrics.counts.get('TransactionConflictRetry')).toBe(1);
  expect(metrics.counts.get('LedgerEventApplied')).toBe(1);
});

it('dead-letters a poison event to the configured DLQ', async () => {
  const { handle } = compose();
  sqs.on(SendMessageCommand).resolves({});

  const res = await handle(sqsEvent(sqsRecord('not json', 'poison-1')));

  expect(res.batchItemFailures).toEqual([]);
  expect(sqs.commandCalls(SendMessageCommand)[0]?.args[0].input).toMatchObject({
    QueueUrl: DLQ_URL,
    MessageBody: 'not json',
  });
});

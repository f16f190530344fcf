import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SNSClient } from '@aws-sdk/client-sns';
import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { httpResponses } from '../../functions/api/problems';
import { LedgerService } from '../../functions/domain/accounts/service';
import type { DeadLetter } from '../../functions/domain/events/port';
import { EventService } from '../../functions/domain/events/service';
import type { RefetchEvent } from '../../functions/domain/gaps/port';
import { silentLog } from '../../functions/domain/shared/log';
import type { MetricsPort } from '../../functions/domain/shared/metrics';
import { createLedgerStore } from '../../functions/dynamodb/accounts/store';
import { createEventStore } from '../../functions/dynamodb/events/store';
import { createMovementStore } from '../../functions/dynamodb/movements/store';
import { createEventsConsumer, type EventsHandler } from '../../functions/handlers/events/consumer';
import { composeSweeper, type SweepRun } from '../../functions/handlers/sweeper/compose';
import { testSweeper } from './config';
import { quietRuntime } from './runtime';

/** A re-fetch request as the tap queue delivers it: the event and its `source` attribute. */
export interface TappedRequest {
  readonly event: RefetchEvent;
  readonly sourceAttribute: string | undefined;
}

/** Everything on a tap queue so far (received and deleted), in arrival order. */
export async function drainRequests(sqs: SQSClient, url: string): Promise<TappedRequest[]> {
  const seen: TappedRequest[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        MessageAttributeNames: ['All'],
      }),
    );
    if (Messages.length === 0) return seen;
    for (const message of Messages) {
      seen.push({
        event: JSON.parse(message.Body ?? '{}') as RefetchEvent,
        sourceAttribute: message.MessageAttributes?.source?.StringValue,
      });
    }
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
      }),
    );
  }
}

/** The events consumer and the sweeper of one test table, each on its own injected clock. */
export function gapRig(options: {
  client: DynamoDBClient;
  tableName: string;
  refetchAfterSeconds: number;
  gapTopicArn: string;
}) {
  const { client, tableName, refetchAfterSeconds } = options;
  const deadLetters: DeadLetter[] = [];
  const ledger = new LedgerService(
    createLedgerStore({ client, tableName }),
    createMovementStore({ client, tableName }),
    {
      idempotencyRetentionSeconds: 60,
      responses: httpResponses,
      backdateLimitDays: 90,
      newId: randomUUID,
    },
  );
  return {
    deadLetters,
    consumer(now: Date): EventsHandler {
      return createEventsConsumer({
        ...quietRuntime(),
        events: new EventService(
          createEventStore({ client, tableName }),
          createMovementStore({ client, tableName }),
          {
            newId: randomUUID,
            inboxRetentionSeconds: 3600,
            gapRefetchAfterSeconds: refetchAfterSeconds,
            backdateLimitDays: 90,
          },
        ),
        deadLetters: { send: async (letter) => void deadLetters.push(letter) },
        clock: () => now,
      });
    },
    /** A sweep at `now`; `sns` defaults to a client that reaches nothing (publish fails). */
    sweeper(now: Date, sns?: SNSClient, metrics?: MetricsPort): SweepRun {
      const rig = testSweeper({ tableName });
      return composeSweeper({
        dynamo: client,
        config: {
          ...rig.config,
          gapRefetchAfterSeconds: refetchAfterSeconds,
          backdateLimitDays: 90,
          gapTopicArn: options.gapTopicArn,
        },
        sns: sns ?? rig.sns,
        sqs: rig.sqs,
        clock: () => now,
        log: silentLog,
        ...(metrics ? { metrics } : {}),
      });
    },
    async newAccount(now: Date): Promise<string> {
      const ctx = { principal: 'producer-owner', idempotencyKey: randomUUID(), now };
      const res = await ledger.createAccount(ctx, { currency: 'EUR' }, { currency: 'EUR' });
      return JSON.parse(res.body).id;
    },
    sources: (accountId: string) => ledger.listEventSources('producer-owner', accountId),
  };
}

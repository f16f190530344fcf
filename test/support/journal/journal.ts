import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { SNSClient } from '@aws-sdk/client-sns';
import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { expect } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import type { JournalEvent } from '../../../functions/domain/journal/events';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import { silentLog } from '../../../functions/domain/shared/log';
import { freePort } from '../../../kit/free-port';
import { localJournalProjector } from '../../../local/functions';
import { resolveStreamArn } from '../../../local/services/dynamodb/table';
import { Lifecycle } from '../../../local/services/lifecycle';
import { localSqsClient, startSqsEmulator } from '../../../local/services/sqs/fauxqs';
import { ensureTopics, type LocalTopics, localSnsClient } from '../../../local/services/sqs/topics';
import { startStreamTrigger } from '../../../local/triggers/stream';
import { testConfig } from '../config';
import { dynamoEndpoint } from '../dynamo-lease';
import { bodyOf, ledgerApi } from '../ledger-api';

/** SNS and SQS on an in-process fauxqs, with the journal topic and its tap queue. */
export interface JournalTopic {
  readonly sns: SNSClient;
  readonly sqs: SQSClient;
  readonly topics: LocalTopics;
  /** Every event on the tap queue so far (received and deleted), in arrival order. */
  drain(): Promise<JournalEvent[]>;
  stop(): Promise<void>;
}

export async function startJournalTopic(): Promise<JournalTopic> {
  const emulator = await startSqsEmulator(await freePort());
  const sqs = localSqsClient(emulator.endpoint);
  const sns = localSnsClient(emulator.endpoint);
  const topics = await ensureTopics(sns, sqs);
  return {
    sns,
    sqs,
    topics,
    drain: () => drainQueue(sqs, topics.journal.tap.url),
    async stop() {
      sns.destroy();
      sqs.destroy();
      await emulator.stop();
    },
  };
}

async function drainQueue(sqs: SQSClient, url: string): Promise<JournalEvent[]> {
  const events: JournalEvent[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    if (Messages.length === 0) return events;
    for (const message of Messages) events.push(JSON.parse(message.Body ?? '{}') as JournalEvent);
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
      }),
    );
  }
}

/**
 * The journal projector as `npm start` runs it (local/functions.ts' composition behind the
 * stream trigger) on a test table; `seen` keeps every batch it was handed, for replays.
 */
export async function startProjector(
  dynamo: DynamoDBClient,
  tableName: string,
  topic: JournalTopic,
): Promise<{ stop: () => Promise<void>; seen: DynamoDBStreamEvent[] }> {
  const lifecycle = new Lifecycle();
  const streams = new DynamoDBStreamsClient({ ...LOCAL_AWS, endpoint: dynamoEndpoint() });
  lifecycle.defer('DynamoDB Streams client', () => streams.destroy());
  const handler = localJournalProjector(
    { config: testConfig({ tableName }), dynamo, sns: topic.sns, topics: topic.topics },
    silentLog,
  );
  const seen: DynamoDBStreamEvent[] = [];
  await startStreamTrigger(lifecycle, {
    name: 'journal projector',
    stream: { arn: await resolveStreamArn(dynamo, tableName), client: streams },
    handler: async (event) => {
      seen.push(event);
      return handler(event);
    },
    log: () => {},
    tuning: { retryBackoffMs: 50, idleDelayMs: 50 },
  });
  return { stop: () => lifecycle.stopAll(), seen };
}

/** A principal's view of the journal routes over the HTTP handler. */
export function journalApi(app: HttpHandler, principal = 'alice') {
  const api = ledgerApi(app, principal);
  return {
    ...api,
    /** Every record of an account's journal, page by page. */
    async journal(accountId: string, as = principal, limit = 1000): Promise<JournalRecord[]> {
      const records: JournalRecord[] = [];
      let after: number | null = 0;
      while (after !== null) {
        const query: Record<string, string> = {
          afterSequence: String(after),
          limit: String(limit),
        };
        const res = await api.get(`/v1/accounts/${accountId}/journal`, as, query);
        if (res.statusCode !== 200) throw new Error(`journal: ${res.statusCode} ${res.body}`);
        const page = bodyOf(res) as unknown as {
          items: JournalRecord[];
          nextAfterSequence: number | null;
        };
        records.push(...page.items);
        after = page.nextAfterSequence;
      }
      return records;
    },
    async version(accountId: string, as = principal): Promise<number> {
      return Number(bodyOf(await api.get(`/v1/accounts/${accountId}`, as)).version);
    },
    /** Waits until the journal reaches the account's version; answers its records. */
    async caughtUp(accountId: string, timeoutMs = 20_000): Promise<JournalRecord[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const version = await this.version(accountId);
        const records = await this.journal(accountId);
        if (records.at(-1)?.sequence === version) return records;
        if (Date.now() > deadline) {
          throw new Error(`journal of ${accountId} at ${records.length}, version ${version}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/**
 * The journal invariants of docs/contract.md §15: sequences 1 … version without a gap, each
 * record's after-values the previous ones plus its deltas (from zeros for an account created
 * with the journal), committedAt never decreasing, the last record at the account's values.
 */
export function expectExactJournal(
  records: readonly JournalRecord[],
  account: { balance: number; available: number; version: number },
): void {
  expect(records.map((r) => r.sequence)).toEqual(
    Array.from({ length: account.version }, (_, i) => i + 1),
  );
  let balance = 0;
  let available = 0;
  let committedAt = '';
  for (const record of records) {
    balance += record.balanceDelta;
    available += record.availableDelta;
    expect([record.balanceAfter, record.availableAfter], `record ${record.sequence}`).toEqual([
      balance,
      available,
    ]);
    expect(record.committedAt >= committedAt, `committedAt of ${record.sequence}`).toBe(true);
    committedAt = record.committedAt;
  }
  expect({ balance, available }).toEqual({
    balance: account.balance,
    available: account.available,
  });
}

import type { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { MAX_RECEIVE_COUNT } from '../../../functions/contract/names';
import { CreditFolder } from '../../../functions/domain/intake/posting';
import { intakeSweep } from '../../../functions/domain/intake/sweep';
import { UnavailableError } from '../../../functions/domain/shared/errors';
import { silentLog } from '../../../functions/domain/shared/log';
import { METRICS } from '../../../functions/domain/shared/metrics';
import { Sweeper } from '../../../functions/domain/sweeper/service';
import { createIntakeDueStore } from '../../../functions/dynamodb/intake/due';
import { createPostingStore } from '../../../functions/dynamodb/intake/posting-store';
import { createDueStore } from '../../../functions/dynamodb/sweeper/store';
import { DUE_SHARD_COUNT } from '../../../functions/dynamodb/table/due-index';
import { keys } from '../../../functions/dynamodb/table/keys';
import { getItem } from '../../../functions/dynamodb/table/reads';
import { createCreditIntakeConsumer } from '../../../functions/handlers/credit-intake/consumer';
import { createOutboxDispatcher } from '../../../functions/handlers/dispatcher/dispatcher';
import { composeSweeper } from '../../../functions/handlers/sweeper/compose';
import { testSweeper } from '../../support/config';
import { recordingMetrics } from '../../support/fakes/metrics';
import { intakeOf } from '../../support/intake/intake';
import { bodyOf } from '../../support/ledger-api';
import { quietRuntime } from '../../support/runtime';
import { useLedgerFixture } from '../fixture';

/**
 * Pending credits never strand (docs/contract.md §24, §36) on DynamoDB Local: the dispatcher marks
 * the account `INTAKE_DUE`, the folder fails until its message is dead-lettered, and the sweep —
 * run on a short schedule, as `npm start` runs it — queues the account again; the folder then
 * posts everything and deletes the marker. No new credit, no operator.
 */
const fixture = useLedgerFixture();
const STRANDED_AFTER_SECONDS = 1;

/** `credit-intake` as SQS runs it: a failed message comes back, then goes to the DLQ. */
function memoryQueue() {
  const waiting: { accountId: string; receives: number }[] = [];
  const dead: string[] = [];
  return {
    waiting,
    dead,
    notify: async (ids: readonly string[]) => {
      for (const accountId of ids) waiting.push({ accountId, receives: 0 });
      return [];
    },
  };
}

const insertRecord = (item: Record<string, unknown>) =>
  ({
    eventName: 'INSERT',
    dynamodb: { SequenceNumber: String(item.sk), NewImage: marshall(item) },
  }) as unknown as DynamoDBRecord;

describe('stranded pending credits heal by themselves (docs/contract.md §24)', () => {
  it('a folder that failed 5 times is healed by the sweep; the marker then goes', async () => {
    const table = { client: fixture.client, tableName: fixture.tableName };
    const queue = memoryQueue();
    const markers = createIntakeDueStore(table);
    const id = await fixture.api.accountWith({ creditIntake: 'deferred' });
    for (const amount of [5, 7]) {
      const res = await fixture.api.post(`/v1/accounts/${id}/transactions`, {
        type: 'credit',
        amount,
        currency: 'EUR',
      });
      expect(res.statusCode).toBe(201);
    }
    // The dispatcher on the stream's two INSERTs of pending credits.
    const dispatch = createOutboxDispatcher({
      ...quietRuntime(),
      jobs: { send: async () => undefined },
      outbox: { markDispatched: async () => undefined },
      creditIntake: queue,
      intakeDue: markers,
      strandedAfterSeconds: STRANDED_AFTER_SECONDS,
    });
    const pending = (await intakeOf(fixture.client, fixture.tableName, id)).pending;
    expect(pending).toHaveLength(2);
    await dispatch({ Records: pending.map(insertRecord) });
    expect(await getItem(fixture.client, fixture.tableName, keys.intakeDue(id))).toMatchObject({
      kind: 'intake-due',
      marks: 1,
    });

    let failures = MAX_RECEIVE_COUNT;
    const real = createPostingStore(table);
    const folder = new CreditFolder(
      {
        ...real,
        readPending: async (accountId, perShard) => {
          if (failures > 0) {
            failures -= 1;
            throw new UnavailableError(undefined, 'the folder fails (injected)');
          }
          return real.readPending(accountId, perShard);
        },
      },
      { clock: () => new Date() },
    );
    const consume = createCreditIntakeConsumer({
      ...quietRuntime(),
      folder,
      queue,
      intakeDue: markers,
    });
    const sweeper = new Sweeper(
      createDueStore(table),
      [intakeSweep(markers, queue, STRANDED_AFTER_SECONDS).handler],
      { shardCount: DUE_SHARD_COUNT },
    );
    /** One receive of every waiting message; a failed one returns, or is dead-lettered. */
    const receiveAll = async () => {
      for (const message of queue.waiting.splice(0)) {
        message.receives += 1;
        const record = { messageId: 'm', body: JSON.stringify({ accountId: message.accountId }) };
        const { batchItemFailures } = await consume({ Records: [record as SQSRecord] });
        if (batchItemFailures.length === 0) continue;
        if (message.receives < MAX_RECEIVE_COUNT) queue.waiting.push(message);
        else queue.dead.push(message.accountId);
      }
    };
    const startedAt = Date.now();
    while (queue.waiting.length > 0) await receiveAll();
    expect(queue.dead).toEqual([id]);
    expect(bodyOf(await fixture.api.get(`/v1/accounts/${id}`)).balance).toBe(0);

    // The sweep's schedule (every 250 ms here) until the account is posted (2 minutes allowed locally; 20 s here).
    let balance = 0;
    while (balance !== 12 && Date.now() - startedAt < 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await sweeper.sweep(new Date());
      await receiveAll();
      balance = Number(bodyOf(await fixture.api.get(`/v1/accounts/${id}`)).balance);
    }
    expect(balance).toBe(12);
    expect(await getItem(fixture.client, fixture.tableName, keys.intakeDue(id))).toBeUndefined();
  });

  it('the deployed sweeper queues a stranded account and emits its lag on every run', async () => {
    const table = { client: fixture.client, tableName: fixture.tableName };
    const id = await fixture.api.accountWith({ creditIntake: 'deferred' });
    const res = await fixture.api.post(`/v1/accounts/${id}/transactions`, {
      type: 'credit',
      amount: 9,
      currency: 'EUR',
    });
    expect(res.statusCode).toBe(201);
    const [credit] = (await intakeOf(fixture.client, fixture.tableName, id)).pending;
    const acceptedAt = Date.parse(String(credit?.acceptedAt));
    // The marker as the dispatcher writes it (deployed: due 60 s after the acceptance).
    await createIntakeDueStore(table).mark(
      id,
      String(credit?.acceptedAt),
      new Date(acceptedAt + 60_000),
    );

    // The sweeper as its Lambda composes it, its SQS client recording what it sends.
    const sent: string[] = [];
    const sqs = {
      send: async (command: SendMessageBatchCommand) => {
        for (const entry of command.input.Entries ?? []) sent.push(String(entry.MessageBody));
        return { Failed: [] };
      },
    } as unknown as SQSClient;
    const metrics = recordingMetrics();
    let now = new Date(acceptedAt);
    const sweep = composeSweeper({
      dynamo: fixture.client,
      ...testSweeper({ tableName: fixture.tableName }),
      sqs,
      clock: () => now,
      log: silentLog,
      metrics,
    });
    /** One scheduled run, `seconds` after the acceptance: what it queued and the lag it emitted. */
    const runAt = async (seconds: number) => {
      now = new Date(acceptedAt + seconds * 1000);
      sent.length = 0;
      metrics.readings.delete(METRICS.creditIntakeLag);
      await sweep();
      return { sent: [...sent], lag: metrics.readings.get(METRICS.creditIntakeLag) };
    };

    // Not stranded yet: nothing queued, no lag.
    expect(await runAt(30)).toEqual({ sent: [], lag: undefined });
    // "Every minute", as EventBridge runs it: a little early or late each time. Every run while
    // the credit waits queues the account once and emits the lag from its acceptance.
    for (const seconds of [61, 120, 178.5, 239, 297]) {
      expect(await runAt(seconds)).toEqual({
        sent: [JSON.stringify({ accountId: id })],
        lag: [seconds],
      });
    }
    // Posted: the next run deletes the marker, queues nothing and emits no lag.
    await new CreditFolder(createPostingStore(table), { clock: () => new Date() }).postAll(id);
    expect(await runAt(356)).toEqual({ sent: [], lag: undefined });
    expect(await getItem(fixture.client, fixture.tableName, keys.intakeDue(id))).toBeUndefined();
  });
});

import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import type { ExportJob } from '../../../functions/domain/exports/model';
import { silentLog } from '../../../functions/domain/shared/log';
import { createOutboxStore } from '../../../functions/dynamodb/exports/outbox-store';
import { createOutboxDispatcher } from '../../../functions/handlers/dispatcher/dispatcher';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { Task } from '../../../functions/schemas/exports/jobs';
import { httpEvent } from '../../../kit/http-event';
import { resolveStreamArn } from '../../../local/services/dynamodb/table';
import { Lifecycle } from '../../../local/services/lifecycle';
import { startStreamTrigger } from '../../../local/triggers/stream';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import { quietRuntime } from '../../support/runtime';

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable({ stream: true }));
});
afterAll(() => drop());

async function until<T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('delivers every execution to export-jobs although the first send crashed after the commit', async () => {
  const app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName }),
    callbackSecrets: staticCallbackSecrets('{}'),
    log: silentLog,
  });
  const post = (path: string, key: string, body: unknown) =>
    app(httpEvent('POST', path, { principal: 'ops', idempotencyKey: key, body }));
  const account = JSON.parse(
    (await post('/v1/accounts', randomUUID(), { currency: 'EUR' })).body,
  ).id;
  await post(`/v1/accounts/${account}/transactions`, randomUUID(), {
    type: 'credit',
    amount: 1000,
    currency: 'EUR',
  });
  const tasks = await Promise.all(
    [1, 2, 3].map(async () =>
      Task.parse(
        JSON.parse(
          (await post(`/v1/accounts/${account}/exports`, randomUUID(), { format: 'json' })).body,
        ),
      ),
    ),
  );

  // The queue: the first send "crashes" (the commit already happened), later ones succeed.
  const delivered: ExportJob[] = [];
  let crashes = 1;
  const dispatcher = createOutboxDispatcher({
    ...quietRuntime(),
    creditIntake: { notify: async () => [] },
    intakeDue: { mark: async () => undefined },
    strandedAfterSeconds: 60,
    jobs: {
      send: async (job) => {
        if (crashes-- > 0) throw new Error('process died between commit and send');
        delivered.push(job);
      },
    },
    outbox: createOutboxStore({ client, tableName }),
  });
  // Started as `npm start` starts the dispatcher: the table's stream, a trigger, a lifecycle.
  const lifecycle = new Lifecycle();
  const streams = new DynamoDBStreamsClient({ ...LOCAL_AWS, endpoint: dynamoEndpoint() });
  lifecycle.defer('DynamoDB Streams client', () => streams.destroy());
  await startStreamTrigger(lifecycle, {
    name: 'outbox dispatcher',
    stream: { arn: await resolveStreamArn(client, tableName), client: streams },
    handler: dispatcher,
    log: () => {},
    tuning: { retryBackoffMs: 50, idleDelayMs: 50 },
  });
  try {
    const wanted = new Set(tasks.map((t) => t.currentExecutionId));
    await until(() =>
      [...wanted].every((id) => delivered.some((j) => j.executionId === id)) ? true : undefined,
    );
  } finally {
    await lifecycle.stopAll();
  }
  const ids = delivered.map((j) => j.executionId);
  console.log(`outbox: ${tasks.length} executions, ${delivered.length} deliveries after 1 crash`);
  for (const task of tasks) {
    const jobs = delivered.filter((j) => j.executionId === task.currentExecutionId);
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    // Duplicates (if any) are the same job: consumers dedup by executionId.
    for (const job of jobs) {
      expect(job).toEqual({
        taskId: task.id,
        executionId: task.currentExecutionId,
        accountId: account,
        format: 'json',
        callbackPath: '/v1/callbacks/export-worker',
      });
    }
  }
  expect(new Set(ids).size).toBe(tasks.length);
});

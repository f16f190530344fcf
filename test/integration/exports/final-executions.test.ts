import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import type { ResultObjectPort } from '../../../functions/domain/exports/port';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { Task } from '../../../functions/schemas/exports/jobs';
import { httpEvent } from '../../../kit/http-event';
import { APP, callbackBody, csvResult, SECRET, signedCallback } from '../../support/callbacks';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';

/**
 * A final execution (SUCCEEDED, FAILED, TIMED_OUT, CANCELED) is final (docs/contract.md §7,
 * §12): a later callback, whatever its sequence, is answered `stale`, the inbox records it and
 * nothing else changes — the result stays downloadable, the task stays rerunnable.
 */

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let app: HttpHandler;
const silent = { info: () => {}, warn: () => {}, error: () => {} };
/** Every object "exists": the result route then answers 200 for a SUCCEEDED execution. */
const results: ResultObjectPort = {
  exists: async () => true,
  presignGet: async (key) => `https://bucket.example/${key}?signed`,
};

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, callbackApplicationId: APP }),
    callbackSecrets: staticCallbackSecrets(JSON.stringify({ [APP]: [SECRET] })),
    results,
    log: silent,
  });
});
afterAll(() => drop());

const alice = { principal: 'alice' };

async function newTask() {
  const created = await app(
    httpEvent('POST', '/v1/accounts', {
      ...alice,
      idempotencyKey: randomUUID(),
      body: { currency: 'EUR' },
    }),
  );
  const accountId = JSON.parse(created.body).id as string;
  await app(
    httpEvent('POST', `/v1/accounts/${accountId}/transactions`, {
      ...alice,
      idempotencyKey: randomUUID(),
      body: { type: 'credit', amount: 1000, currency: 'EUR' },
    }),
  );
  const exported = await app(
    httpEvent('POST', `/v1/accounts/${accountId}/exports`, {
      ...alice,
      idempotencyKey: randomUUID(),
      body: { format: 'csv' },
    }),
  );
  const task = Task.parse(JSON.parse(exported.body));
  return { taskId: task.id, executionId: task.currentExecutionId };
}

const callback = async (spec: Parameters<typeof callbackBody>[0]) => {
  const res = await app(signedCallback(callbackBody(spec)));
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body).outcome as string;
};

const getTask = async (taskId: string) =>
  Task.parse(JSON.parse((await app(httpEvent('GET', `/v1/tasks/${taskId}`, alice))).body));

async function storedExecution(executionId: string) {
  const { Items = [] } = await client.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: 'kind = :k AND id = :id',
      ExpressionAttributeValues: marshall({ ':k': 'execution', ':id': executionId }),
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => unmarshall(item))[0];
}

async function inboxCount(): Promise<number> {
  const { Count = 0 } = await client.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: marshall({ ':p': 'INBOX#' }),
      ConsistentRead: true,
    }),
  );
  return Count;
}

describe('a SUCCEEDED execution is final', () => {
  it('answers a later RUNNING callback stale; the result stays 200 and the task rerunnable', async () => {
    const { taskId, executionId } = await newTask();
    const result = csvResult(taskId, executionId);
    expect(
      await callback({ executionId, sequence: 1, status: 'SUCCEEDED', progress: 100, result }),
    ).toBe('applied');
    const before = await storedExecution(executionId);
    const taskBefore = await getTask(taskId);
    const inboxBefore = await inboxCount();

    // A later sequence, as a confused or replaying worker would send it.
    expect(await callback({ executionId, sequence: 2, status: 'RUNNING', progress: 5 })).toBe(
      'stale',
    );
    expect(await callback({ executionId, sequence: 9, status: 'FAILED' })).toBe('stale');

    expect(await inboxCount()).toBe(inboxBefore + 2);
    expect(await storedExecution(executionId)).toEqual(before);
    expect(await getTask(taskId)).toEqual(taskBefore);
    const download = await app(httpEvent('GET', `/v1/tasks/${taskId}/result`, alice));
    expect(download.statusCode, download.body).toBe(200);
    expect(JSON.parse(download.body)).toMatchObject({ rows: result.rows, sha256: result.sha256 });
    const rerun = await app(
      httpEvent('POST', `/v1/tasks/${taskId}/reruns`, {
        ...alice,
        idempotencyKey: randomUUID(),
        body: {},
      }),
    );
    expect(rerun.statusCode, rerun.body).toBe(202);
  });
});

describe('a FAILED execution is final', () => {
  it('answers a later SUCCEEDED stale and keeps the task FAILED', async () => {
    const { taskId, executionId } = await newTask();
    expect(await callback({ executionId, sequence: 1, status: 'FAILED' })).toBe('applied');
    const before = await storedExecution(executionId);
    expect(
      await callback({
        executionId,
        sequence: 2,
        status: 'SUCCEEDED',
        progress: 100,
        result: csvResult(taskId, executionId),
      }),
    ).toBe('stale');
    expect(await storedExecution(executionId)).toEqual(before);
    expect((await getTask(taskId)).status).toBe('FAILED');
    const download = await app(httpEvent('GET', `/v1/tasks/${taskId}/result`, alice));
    expect(download.statusCode).toBe(409);
  });

  it('is final before superseded: a late callback about a replaced execution is stale', async () => {
    const { taskId, executionId: first } = await newTask();
    await callback({ executionId: first, sequence: 1, status: 'FAILED' });
    const rerun = await app(
      httpEvent('POST', `/v1/tasks/${taskId}/reruns`, {
        ...alice,
        idempotencyKey: randomUUID(),
        body: {},
      }),
    );
    expect(rerun.statusCode).toBe(202);
    const late = await callback({
      executionId: first,
      taskId,
      sequence: 2,
      status: 'SUCCEEDED',
      progress: 100,
      result: csvResult(taskId, first),
    });
    expect(late).toBe('stale');
    const task = await getTask(taskId);
    expect(task).toMatchObject({ status: 'CREATED', progress: 0 });
    expect(task.executions.find((e) => e.id === first)).toMatchObject({
      status: 'FAILED',
      lastSequence: 1,
    });
  });

  it('still answers a repeated callback id duplicate (duplicate > final execution)', async () => {
    const { executionId } = await newTask();
    const id = randomUUID();
    expect(await callback({ id, executionId, sequence: 1, status: 'FAILED' })).toBe('applied');
    expect(await callback({ id, executionId, sequence: 1, status: 'FAILED' })).toBe('duplicate');
  });
});

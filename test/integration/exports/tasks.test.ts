import { randomUUID } from 'node:crypto';
import { type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import { silentLog } from '../../../functions/domain/shared/log';
import { epochSeconds } from '../../../functions/domain/shared/time';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { Task } from '../../../functions/schemas/exports/jobs';
import { httpEvent } from '../../../kit/http-event';
import {
  APP,
  callbackBody,
  csvResult,
  NEXT_SECRET,
  SECRET,
  signedCallback,
} from '../../support/callbacks';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let app: HttpHandler;
const FEE = 100;
const OTHER_SECRET = 'other-app-secret-0123456789';
beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, exportFee: FEE, callbackApplicationId: APP }),
    callbackSecrets: staticCallbackSecrets(
      JSON.stringify({ [APP]: [SECRET, NEXT_SECRET], 'other-app': [OTHER_SECRET] }),
    ),
    log: silentLog,
  });
});
afterAll(() => drop());

const as = (principal: string) => ({ principal });

async function fundedAccount(balance = 1000): Promise<string> {
  const created = await app(
    httpEvent('POST', '/v1/accounts', {
      ...as('alice'),
      idempotencyKey: randomUUID(),
      body: { currency: 'EUR' },
    }),
  );
  const id = JSON.parse(created.body).id as string;
  if (balance > 0) {
    await app(
      httpEvent('POST', `/v1/accounts/${id}/transactions`, {
        ...as('alice'),
        idempotencyKey: randomUUID(),
        body: { type: 'credit', amount: balance, currency: 'EUR' },
      }),
    );
  }
  return id;
}

const exportFor = (
  accountId: string,
  key: string,
  body: unknown = { format: 'csv' },
  who = 'alice',
) =>
  app(
    httpEvent('POST', `/v1/accounts/${accountId}/exports`, {
      ...as(who),
      idempotencyKey: key,
      body,
    }),
  );

async function getTask(taskId: string, who = 'alice') {
  const res = await app(httpEvent('GET', `/v1/tasks/${taskId}`, as(who)));
  return {
    status: res.statusCode,
    task: res.statusCode === 200 ? Task.parse(JSON.parse(res.body)) : undefined,
  };
}

async function balance(accountId: string): Promise<number> {
  return JSON.parse((await app(httpEvent('GET', `/v1/accounts/${accountId}`, as('alice')))).body)
    .balance;
}

async function scanKinds(kind: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await client.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: 'kind = :k',
      ExpressionAttributeValues: marshall({ ':k': kind }),
      ConsistentRead: true,
    }),
  );
  return Items.map((i) => unmarshall(i));
}

async function newTask(): Promise<{ accountId: string; taskId: string; executionId: string }> {
  const accountId = await fundedAccount();
  const res = await exportFor(accountId, randomUUID());
  const task = Task.parse(JSON.parse(res.body));
  return { accountId, taskId: task.id, executionId: task.currentExecutionId };
}

const callback = async (spec: Parameters<typeof callbackBody>[0], options = {}) => {
  const res = await app(signedCallback(callbackBody(spec), options));
  return { status: res.statusCode, body: JSON.parse(res.body) };
};

describe('paid exports (docs/contract.md §5)', () => {
  it('charges the fee once and creates one task for a retried request', async () => {
    const accountId = await fundedAccount(1000);
    const first = await exportFor(accountId, 'exp-1');
    const retry = await exportFor(accountId, 'exp-1');
    expect(first.statusCode).toBe(202);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const task = Task.parse(JSON.parse(first.body));
    expect(task).toMatchObject({ accountId, format: 'csv', status: 'CREATED', progress: 0 });
    expect(task.executions).toHaveLength(1);
    expect(await balance(accountId)).toBe(1000 - FEE);
    const outbox = (await scanKinds('outbox')).filter(
      (o) => (o.job as { taskId: string }).taskId === task.id,
    );
    expect(outbox).toHaveLength(1);
    expect(outbox[0]?.job).toEqual({
      taskId: task.id,
      executionId: task.currentExecutionId,
      accountId,
      format: 'csv',
      callbackPath: `/v1/callbacks/${APP}`,
    });
  });

  it('creates one task and one fee for 20 concurrent retries', async () => {
    const accountId = await fundedAccount(1000);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => exportFor(accountId, 'exp-burst')),
    );
    expect(new Set(responses.map((r) => `${r.statusCode} ${r.body}`)).size).toBe(1);
    expect(responses[0]?.statusCode).toBe(202);
    expect(await balance(accountId)).toBe(1000 - FEE);
    const taskIds = new Set(
      (await scanKinds('task')).filter((t) => t.accountId === accountId).map((t) => t.id),
    );
    expect(taskIds.size).toBe(1);
  });

  it('records insufficient funds for the fee and creates nothing', async () => {
    const accountId = await fundedAccount(0);
    const res = await exportFor(accountId, 'exp-poor');
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body).code).toBe('insufficient_funds');
    expect((await exportFor(accountId, 'exp-poor')).headers['idempotent-replayed']).toBe('true');
    expect((await scanKinds('task')).filter((t) => t.accountId === accountId)).toEqual([]);
  });

  it('hides tasks and accounts of other principals', async () => {
    const { accountId, taskId } = await newTask();
    expect((await exportFor(accountId, 'exp-x', { format: 'json' }, 'bob')).statusCode).toBe(404);
    expect((await getTask(taskId, 'bob')).status).toBe(404);
    const rerun = await app(
      httpEvent('POST', `/v1/tasks/${taskId}/reruns`, {
        ...as('bob'),
        idempotencyKey: 'r',
        body: {},
      }),
    );
    expect(rerun.statusCode).toBe(404);
  });

  it('rejects an unknown format and a rerun body with options', async () => {
    const { accountId, taskId } = await newTask();
    expect((await exportFor(accountId, 'exp-bad', { format: 'xml' })).statusCode).toBe(400);
    const rerun = await app(
      httpEvent('POST', `/v1/tasks/${taskId}/reruns`, {
        ...as('alice'),
        idempotencyKey: 'r',
        body: { force: true },
      }),
    );
    expect(rerun.statusCode).toBe(400);
  });
});

describe('reruns', () => {
  it('refuses a rerun while running (recorded) and allows one after a terminal status', async () => {
    const { taskId, executionId } = await newTask();
    const rerun = (key: string) =>
      app(
        httpEvent('POST', `/v1/tasks/${taskId}/reruns`, {
          ...as('alice'),
          idempotencyKey: key,
          body: {},
        }),
      );
    const early = await rerun('rerun-1');
    expect(early.statusCode).toBe(409);
    expect(JSON.parse(early.body).code).toBe('task_not_terminal');
    expect((await rerun('rerun-1')).headers['idempotent-replayed']).toBe('true');

    expect(
      (await callback({ executionId, sequence: 1, status: 'FAILED', progress: 40 })).status,
    ).toBe(200);
    const ok = await rerun('rerun-2');
    expect(ok.statusCode).toBe(202);
    const task = Task.parse(JSON.parse(ok.body));
    expect(task.executions.map((e) => e.id)).toContain(executionId);
    expect(task.currentExecutionId).not.toBe(executionId);
    expect(task).toMatchObject({ status: 'CREATED', progress: 0 });
    expect((await rerun('rerun-2')).body).toBe(ok.body);
    const outbox = (await scanKinds('outbox')).filter(
      (o) => (o.job as { taskId: string }).taskId === taskId,
    );
    expect(outbox).toHaveLength(2);
  });
});

describe('callback ordering (docs/contract.md §7)', () => {
  it('applies a later sequence and keeps an older one stale', async () => {
    const { taskId, executionId } = await newTask();
    expect(
      (await callback({ executionId, sequence: 8, status: 'RUNNING', progress: 80 })).body,
    ).toEqual({ outcome: 'applied' });
    expect(
      (await callback({ executionId, sequence: 7, status: 'RUNNING', progress: 70 })).body,
    ).toEqual({ outcome: 'stale' });
    const { task } = await getTask(taskId);
    expect(task).toMatchObject({ status: 'RUNNING', progress: 80 });
    expect(task?.executions[0]).toMatchObject({
      status: 'RUNNING',
      lastSequence: 8,
      gaps: [1, 2, 3, 4, 5, 6],
    });
    // A stale number that fills no gap leaves the projection exactly as it was.
    expect((await callback({ executionId, sequence: 8, progress: 1 })).body.outcome).toBe('stale');
    expect((await getTask(taskId)).task).toEqual(task);
  });

  it('records gaps and fills them as late events arrive', async () => {
    const { taskId, executionId } = await newTask();
    await callback({ executionId, sequence: 1, status: 'RUNNING', progress: 10 });
    await callback({ executionId, sequence: 4, progress: 40 });
    expect((await getTask(taskId)).task?.executions[0]).toMatchObject({
      gaps: [2, 3],
      lastSequence: 4,
    });
    expect((await callback({ executionId, sequence: 3, progress: 30 })).body.outcome).toBe('stale');
    const { task } = await getTask(taskId);
    expect(task?.executions[0]).toMatchObject({
      gaps: [2],
      lastSequence: 4,
      status: 'RUNNING',
      progress: 40,
    });
    expect(task).toMatchObject({ status: 'RUNNING', progress: 40 });
  });

  // A late callback about a replaced execution: that execution is final (a rerun needs a final
  // current execution), so it is stale, not superseded (test/integration/exports/final-executions.test.ts).

  it('keeps the newest snapshot and exact gaps under 10 concurrent callbacks out of order', async () => {
    const { taskId, executionId } = await newTask();
    const sequences = [7, 2, 12, 5, 9, 1, 11, 4, 3, 8]; // 6 and 10 never arrive
    // A 503 (the execution kept moving past the retry budget, docs/contract.md §7) is retried
    // with the same id, as a worker does; no callback may end in anything but 200.
    const sendUntilAnswered = async (sequence: number) => {
      const spec = { id: randomUUID(), executionId, sequence, progress: sequence * 5 };
      let answer = await callback({ ...spec, status: 'RUNNING' });
      for (let retry = 0; answer.status === 503 && retry < 5; retry++) {
        answer = await callback({ ...spec, status: 'RUNNING' });
      }
      return answer;
    };
    const results = await Promise.all(sequences.map(sendUntilAnswered));
    expect(results.map((r) => r.status)).toEqual(sequences.map(() => 200));
    const { task } = await getTask(taskId);
    expect(task?.executions[0]).toMatchObject({ lastSequence: 12, gaps: [6, 10], progress: 60 });
    expect(task).toMatchObject({ progress: 60, status: 'RUNNING' });
    expect(results.filter((r) => r.body.outcome === 'applied').length).toBeGreaterThanOrEqual(1);
  });

  it('answers duplicate for a callback id seen before, without touching state', async () => {
    const { taskId, executionId } = await newTask();
    const id = randomUUID();
    expect((await callback({ id, executionId, sequence: 1, progress: 10 })).body.outcome).toBe(
      'applied',
    );
    expect((await callback({ id, executionId, sequence: 1, progress: 10 })).body.outcome).toBe(
      'duplicate',
    );
    expect((await getTask(taskId)).task).toMatchObject({ progress: 10 });
    // The same id with other content is refused (docs/contract.md §7; test/integration/accounts/hardening.test.ts).
  });
});

describe('callback security', () => {
  const now = () => epochSeconds();

  it.each<[string, (body: string) => ReturnType<typeof signedCallback>, string]>([
    [
      'a tampered body',
      (body) => ({ ...signedCallback(body), body: body.replace('"sequence":1', '"sequence":2') }),
      'invalid_signature',
    ],
    [
      'a wrong secret',
      (body) => signedCallback(body, { secrets: ['not-the-secret-000000'] }),
      'invalid_signature',
    ],
    ['no header', (body) => signedCallback(body, { header: '' }), 'invalid_signature'],
    [
      'a garbled header',
      (body) => signedCallback(body, { header: 't=abc,v1=zz' }),
      'invalid_signature',
    ],
    [
      'a header without v1',
      (body) => signedCallback(body, { header: `t=${now()}` }),
      'invalid_signature',
    ],
    [
      'an unknown application',
      (body) => signedCallback(body, { app: 'someone-else' }),
      'invalid_signature',
    ],
    [
      'a timestamp 301 s old',
      (body) => signedCallback(body, { timestamp: now() - 301 }),
      'signature_expired',
    ],
    [
      'a timestamp 301 s ahead',
      (body) => signedCallback(body, { timestamp: now() + 301 }),
      'signature_expired',
    ],
  ])('rejects %s with 401, no state change and no inbox record', async (_name, make, code) => {
    const { taskId, executionId } = await newTask();
    const inboxBefore = (await scanKinds('inbox')).length;
    const res = await app(
      make(callbackBody({ executionId, sequence: 1, status: 'RUNNING', progress: 50 })),
    );
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body).code).toBe(code);
    expect((await getTask(taskId)).task).toMatchObject({ status: 'CREATED', progress: 0 });
    expect((await scanKinds('inbox')).length).toBe(inboxBefore);
  });

  it('refuses a valid signature replayed with another body', async () => {
    const { taskId, executionId } = await newTask();
    const original = callbackBody({ executionId, sequence: 1, progress: 10 });
    const signed = signedCallback(original);
    const header = signed.headers['callback-signature'] ?? '';
    const forged = callbackBody({ executionId, sequence: 2, status: 'SUCCEEDED', progress: 100 });
    const res = await app(signedCallback(forged, { header }));
    expect(res.statusCode).toBe(401);
    expect((await getTask(taskId)).task).toMatchObject({ status: 'CREATED' });
  });

  it('accepts the old and the new secret while both are active (rotation)', async () => {
    const { executionId } = await newTask();
    expect((await callback({ executionId, sequence: 1 }, { secrets: [SECRET] })).status).toBe(200);
    expect((await callback({ executionId, sequence: 2 }, { secrets: [NEXT_SECRET] })).status).toBe(
      200,
    );
    expect(
      (
        await callback(
          { executionId, sequence: 3 },
          { secrets: ['retired-secret-00000', NEXT_SECRET] },
        )
      ).status,
    ).toBe(200);
  });
});

describe('callback validation (each rule of docs/contract.md §7)', () => {
  it.each<[string, (ids: { executionId: string; taskId: string }) => unknown]>([
    ['specversion other than 1.0', (i) => ({ ...base(i), specversion: '0.3' })],
    ['id not a UUID', (i) => ({ ...base(i), id: 'abc' })],
    ['id the nil UUID', (i) => ({ ...base(i), id: '00000000-0000-0000-0000-000000000000' })],
    ['empty source', (i) => ({ ...base(i), source: '' })],
    ['empty type', (i) => ({ ...base(i), type: '' })],
    ['sequence 0', (i) => ({ ...base(i), sequence: 0 })],
    ['sequence not an integer', (i) => ({ ...base(i), sequence: 1.5 })],
    ['sequence a non-decimal string', (i) => ({ ...base(i), sequence: '0x10' })],
    ['status outside the enum', (i) => ({ ...base(i), data: { status: 'DONE' } })],
    ['progress over 100', (i) => ({ ...base(i), data: { progress: 101 } })],
    ['progress negative', (i) => ({ ...base(i), data: { progress: -1 } })],
    ['applicationid not the path one', (i) => ({ ...base(i), applicationid: 'other-app' })],
    ['executionid not a UUID', (i) => ({ ...base(i), executionid: 'exec-1' })],
    ['taskid not a UUID', (i) => ({ ...base(i), taskid: 'task-1' })],
    ['an unknown execution', (i) => ({ ...base(i), executionid: randomUUID() })],
    ['an execution of another task', (i) => ({ ...base(i), taskid: randomUUID() })],
    ['no data', (i) => ({ ...base(i), data: undefined })],
  ])('rejects %s with 400 invalid_callback', async (_name, make) => {
    const { taskId, executionId } = await newTask();
    const body = JSON.stringify(make({ executionId, taskId }));
    const res = await app(signedCallback(body));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).code).toBe('invalid_callback');
    expect((await getTask(taskId)).task?.executions[0]?.lastSequence).toBe(0);
  });

  it('rejects a valid callback from another application about this execution', async () => {
    const { taskId, executionId } = await newTask();
    const body = callbackBody({ executionId, sequence: 1, status: 'RUNNING' });
    const res = await app(signedCallback(body, { app: 'other-app', secrets: [OTHER_SECRET] }));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).code).toBe('invalid_callback');
    expect((await getTask(taskId)).task?.executions[0]?.lastSequence).toBe(0);
  });

  it('checks the signature before parsing: garbage with a bad signature is 401, not 400', async () => {
    const res = await app(
      signedCallback('{not json', {
        header: `t=${epochSeconds()},v1=${'0'.repeat(64)}`,
      }),
    );
    expect(res.statusCode).toBe(401);
    const signedGarbage = await app(signedCallback('{not json'));
    expect(signedGarbage.statusCode).toBe(400);
    expect(JSON.parse(signedGarbage.body).code).toBe('invalid_callback');
  });

  it('refuses a body over 64 KiB (413) and a non-JSON media type (415)', async () => {
    const { executionId } = await newTask();
    const big = JSON.stringify({
      ...JSON.parse(callbackBody({ executionId, sequence: 1 })),
      pad: 'x'.repeat(70_000),
    });
    expect((await app(signedCallback(big))).statusCode).toBe(413);
    const event = signedCallback(callbackBody({ executionId, sequence: 1 }));
    event.headers['content-type'] = 'text/plain';
    const res = await app(event);
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body).code).toBe('unsupported_media_type');
  });

  it('accepts a decimal-string sequence', async () => {
    const { executionId } = await newTask();
    expect((await callback({ executionId, sequence: '3' })).body.outcome).toBe('applied');
  });
});

function base(ids: { executionId: string; taskId: string }) {
  return JSON.parse(
    callbackBody({ ...ids, sequence: 1, status: 'RUNNING', progress: 5 }),
  ) as Record<string, unknown>;
}

describe('bounded tasks and deadlines on DynamoDB Local (docs/contract.md §12)', () => {
  const rerun = (taskId: string, key: string) =>
    app(
      httpEvent('POST', `/v1/tasks/${taskId}/reruns`, {
        ...as('alice'),
        idempotencyKey: key,
        body: {},
      }),
    );

  it('puts a new execution into the due index at its deadline and takes it out when terminal', async () => {
    const { taskId, executionId } = await newTask();
    const due = (await scanKinds('execution')).find((e) => e.id === executionId);
    expect(due).toMatchObject({ dueShard: expect.any(Number), dueAt: expect.any(Number) });
    expect(due?.dueAt).toBe(Date.parse(String(due?.deadline)));
    expect(Date.parse(String(due?.deadline)) - Date.parse(String(due?.createdAt))).toBe(900_000);

    await callback({
      executionId,
      sequence: 1,
      status: 'SUCCEEDED',
      progress: 100,
      result: csvResult(taskId, executionId),
    });
    const settled = (await scanKinds('execution')).find((e) => e.id === executionId);
    expect(settled?.dueShard).toBeUndefined();
    expect(settled?.dueAt).toBeUndefined();
    expect(settled?.result).toEqual(csvResult(taskId, executionId));
  });

  // 20 reruns, each after a FAILED callback: 40 sequential requests; generous under a loaded run.
  it('refuses the 21st rerun with 409 rerun_limit_reached (recorded) and lists 20 executions', {
    timeout: 120_000,
  }, async () => {
    const { taskId, executionId: first } = await newTask();
    let current = first;
    for (let i = 1; i <= 20; i++) {
      await callback({ executionId: current, sequence: 1, status: 'FAILED' });
      const ok = await rerun(taskId, `limit-${i}`);
      expect(ok.statusCode, `rerun ${i}`).toBe(202);
      const body = Task.parse(JSON.parse(ok.body));
      expect(body.executions.length).toBeLessThanOrEqual(20);
      current = body.currentExecutionId;
    }
    const { task } = await getTask(taskId);
    if (!task) throw new Error('no task');
    expect(task.executions).toHaveLength(20);
    expect(task.executionsTruncated).toBe(true);
    expect(task.executions.map((e) => e.id)).not.toContain(first);

    await callback({ executionId: current, sequence: 1, status: 'FAILED' });
    const refused = await rerun(taskId, 'limit-21');
    expect(refused.statusCode).toBe(409);
    expect(JSON.parse(refused.body).code).toBe('rerun_limit_reached');
    expect((await rerun(taskId, 'limit-21')).headers['idempotent-replayed']).toBe('true');
    const stored = (await scanKinds('task')).find((t) => t.id === taskId);
    expect(stored?.rerunCount).toBe(20);
  });
});

import { randomUUID } from 'node:crypto';
import { DeleteItemCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient } from '../../client/index';
import { LOCAL_AWS } from '../../functions/contract/local-stack';
import { QUEUE_NAMES } from '../../functions/contract/names';
import { DEFAULT_INTAKE_SHARDS } from '../../functions/domain/accounts/model';
import { keys } from '../../functions/dynamodb/table/keys';
import { apiClient } from './support/raw-api';
import { runScript } from './support/run-script';
import { clientFor, key, type LocalStack, startLocalStack } from './support/stack';

/**
 * Deferred credits over the local stack's HTTP API, as an application and an operator meet them
 * (docs/contract.md §24): the settings route and `npm run cli -- settings`, a credit read back
 * by id with its status, `pending-credits` over HTTP and through the CLI; and the folder: the
 * outbox dispatcher (already on the table's stream) feeds `credit-intake`, and the folder behind
 * its local queue trigger posts them.
 */

const alice = { principal: 'alice' };
let stack: LocalStack;
let api: ReturnType<typeof apiClient>;
let client: LedgerClient;

/** The stranded tests' stack (below), started beside the file's: neither waits for the other. */
let strandedStart: Promise<LocalStack> | undefined;

beforeAll(async () => {
  strandedStart = startLocalStack({
    EXPORT_WORKER: 'off',
    SQS_VISIBILITY_TIMEOUT_SECONDS: '1',
    INTAKE_STRANDED_AFTER_SECONDS: '4',
  });
  strandedStart.catch(() => {}); // its describe's beforeAll reports a failed start
  stack = await startLocalStack({ EXPORT_WORKER: 'off' });
  api = apiClient(stack.base);
  client = clientFor(stack.base, 'alice');
});

// Both stacks stop here, the stranded one too: its describe's hooks do not run when the file's
// beforeAll failed or a filter skipped it, and it would outlive the file.
afterAll(async () => {
  const stop = async (running: LocalStack | undefined) => {
    if (running) await running.interrupt();
    running?.kill();
  };
  await Promise.all([stop(stack), strandedStart?.then(stop, () => {})]);
});

const cli = (...args: string[]) =>
  runScript('cli/main.ts', [...args, '--principal', 'alice'], {
    PORT: String(stack.httpPort),
    SQS_PORT: String(stack.sqsPort),
    SQS_ENDPOINT: '',
  });

/** Balance and version of an account, read through `via` (the file's stack unless given). */
async function accountOf(accountId: string, via: LedgerClient = client) {
  const { data } = await via.GET('/v1/accounts/{accountId}', {
    params: { path: { accountId } },
  });
  return { balance: data?.balance ?? 0, version: data?.version ?? 0 };
}

// The stranded test is mostly waiting (five 1 s receives, then the sweep) on a stack of its own,
// so it runs beside the tests on the file's stack, which stay one after another.
describe.concurrent('stranded pending credits heal by themselves on the local stack (docs/contract.md §36)', () => {
  /**
   * A stack of its own, so that nothing else is dead-lettered there and its settings reach no
   * other test: failed folder runs reappear after 1 s, not the default 5 (the five receives
   * before the dead-letter queue take 5 s instead of 25), and credits pending 4 s count as
   * stranded, not 10 (the sweep that heals them comes sooner).
   */
  let stranded: LocalStack;
  beforeAll(async () => {
    if (!strandedStart)
      throw new Error("the stranded stack was not started by the file's beforeAll");
    stranded = await strandedStart;
  });

  it('a folder failed 5 times (its message dead-lettered) posts within 2 minutes once it can', async ({
    expect,
  }) => {
    const onStranded = clientFor(stranded.base, 'alice');
    const dynamo = new DynamoDBClient({ endpoint: stranded.dynamo.endpoint, ...LOCAL_AWS });
    const TableName = stranded.dynamo.tableName;
    const created = await onStranded.POST('/v1/accounts', {
      params: { header: key(randomUUID()) },
      body: { currency: 'EUR', creditIntake: 'deferred' },
    });
    const id = created.data?.id ?? '';
    // The local stack's INTAKE_SHARDS is the default.
    const shards = DEFAULT_INTAKE_SHARDS;
    // A transient fault: every partition's posted count is unreadable as a number, so each
    // posting transaction fails (a storage error, not a refusal) until the items are repaired.
    const posted = (shard: number) => marshall(keys.intakePosted(id, shard));
    for (let shard = 0; shard < shards; shard++) {
      await dynamo.send(
        new PutItemCommand({
          TableName,
          Item: { ...posted(shard), posted: { S: 'broken' } },
        }),
      );
    }
    const res = await onStranded.POST('/v1/accounts/{accountId}/transactions', {
      params: { path: { accountId: id }, header: key(randomUUID()) },
      body: { type: 'credit', amount: 77, currency: 'EUR' },
    });
    expect(res.response.status).toBe(201);

    // 5 receives (1 s visibility on this stack), then credit-intake-dlq holds the account's message.
    const sqs = new SQSClient({ endpoint: stranded.sqsEndpoint, ...LOCAL_AWS });
    const { QueueUrl: dlqUrl } = await sqs.send(
      new GetQueueUrlCommand({ QueueName: QUEUE_NAMES.creditIntakeDeadLetter }),
    );
    let lettered = false;
    const failing = Date.now();
    while (!lettered && Date.now() - failing < 90_000) {
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: dlqUrl,
          AttributeNames: ['ApproximateNumberOfMessages'],
        }),
      );
      lettered = Number(Attributes?.ApproximateNumberOfMessages ?? 0) > 0;
      if (!lettered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(lettered).toBe(true);
    expect(await accountOf(id, onStranded)).toEqual({ balance: 0, version: 0 });

    // The fault ends; no new credit, no redrive: the sweep queues the account again by itself.
    for (let shard = 0; shard < shards; shard++) {
      await dynamo.send(new DeleteItemCommand({ TableName, Key: posted(shard) }));
    }
    const healing = Date.now();
    let seen = await accountOf(id, onStranded);
    while (seen.balance < 77 && Date.now() - healing < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await accountOf(id, onStranded);
    }
    expect(seen).toEqual({ balance: 77, version: 1 });
    expect(Date.now() - healing).toBeLessThan(120_000);
    const pending = await apiClient(stranded.base)(
      'GET',
      `/v1/accounts/${id}/pending-credits`,
      alice,
    );
    expect(pending.json.items).toEqual([]);
  }, 240_000);
});

describe("on the file's stack", { concurrent: true }, () => {
  describe.sequential('deferred credits over HTTP (docs/contract.md §24)', () => {
    it('settings, a credit by id with its status, and pending credits, over HTTP and the CLI', async () => {
      const created = await api('POST', '/v1/accounts', {
        ...alice,
        key: randomUUID(),
        body: { currency: 'EUR' },
      });
      const accountId = String(created.json.id);

      const turned = await cli('settings', '--account', accountId, '--credit-intake', 'deferred');
      expect(turned.code, turned.output).toBe(0);
      expect(turned.output).toContain(`account ${accountId}: creditIntake deferred`);
      const read = await api('GET', `/v1/accounts/${accountId}`, alice);
      expect(read.json).toMatchObject({ creditIntake: 'deferred', version: 0 });

      const credit = await api('POST', `/v1/accounts/${accountId}/transactions`, {
        ...alice,
        key: randomUUID(),
        body: { type: 'credit', amount: 300, currency: 'EUR', reference: 'fee' },
      });
      expect(credit.status).toBe(201);
      expect(credit.json).not.toHaveProperty('status');
      const entryId = String(credit.json.id);
      const byId = await api('GET', `/v1/accounts/${accountId}/transactions/${entryId}`, alice);
      expect(byId.status).toBe(200);
      // Pending until a folder posts it; either way the entry is the one the POST answered.
      expect(byId.json).toMatchObject({
        ...credit.json,
        status: expect.stringMatching(/^(pending|posted)$/),
      });

      const pending = await api('GET', `/v1/accounts/${accountId}/pending-credits`, alice);
      expect(pending.status).toBe(200);
      const items = pending.json.items as Record<string, unknown>[];
      expect(items.every((item) => item.entryId === entryId && item.kind === 'credit')).toBe(true);
      const listed = await cli('pending-credits', '--account', accountId);
      expect(listed.code, listed.output).toBe(0);
      expect(listed.output).toMatch(/\d+ pending credit\(s\) on /);

      const foreign = await api('GET', `/v1/accounts/${accountId}/transactions/${entryId}`, {
        principal: 'mallory',
      });
      expect(foreign.status).toBe(404);
      const empty = await api('POST', `/v1/accounts/${accountId}/settings`, {
        ...alice,
        key: randomUUID(),
        body: {},
      });
      expect([empty.status, empty.json.code]).toEqual([400, 'validation_failed']);
      const lowered = await cli('settings', '--account', accountId, '--overdraft-limit', '5');
      expect(lowered.code, lowered.output).toBe(0);
      expect(lowered.output).toContain('overdraftLimit 5');
    });
  });

  describe.sequential('the credit folder on the local stack (docs/contract.md §24)', () => {
    it('prints the folder in the banner and creates its queues', () => {
      expect(stack.output()).toContain(`${QUEUE_NAMES.creditIntake} -> the credit folder`);
      expect(stack.output()).toContain(`/${QUEUE_NAMES.creditIntakeDeadLetter}`);
    });

    it('posts every credit into a deferred account within seconds, each exactly once', async () => {
      const created = await client.POST('/v1/accounts', {
        params: { header: key(randomUUID()) },
        body: { currency: 'EUR', creditIntake: 'deferred' },
      });
      expect(created.response.status).toBe(201);
      const id = created.data?.id ?? '';
      const amounts = Array.from({ length: 40 }, (_, i) => i + 1);
      await Promise.all(
        amounts.map(async (amount) => {
          const res = await client.POST('/v1/accounts/{accountId}/transactions', {
            params: { path: { accountId: id }, header: key(randomUUID()) },
            body: { type: 'credit', amount, currency: 'EUR' },
          });
          expect(res.response.status).toBe(201);
        }),
      );
      const answered = Date.now();
      const total = amounts.reduce((a, b) => a + b, 0);
      let seen = await accountOf(id);
      while (seen.balance < total && Date.now() - answered < 20_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await accountOf(id);
      }
      expect(seen).toEqual({ balance: total, version: amounts.length });
      // Within 10 s of the last answer (docs/contract.md §24's target).
      expect(Date.now() - answered).toBeLessThan(10_000);
    });
  });
});

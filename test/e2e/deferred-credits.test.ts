import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/raw-api';
import { runScript } from './support/run-script';
import { type LocalStack, startLocalStack } from './support/stack';

/**
 * Deferred credits over the local stack's HTTP API, as an application and an operator meet them
 * (docs/contract.md §24): the settings route and `npm run cli -- settings`, a credit read back
 * by id with its status, `pending-credits` over HTTP and through the CLI.
 */

const alice = { principal: 'alice' };
let stack: LocalStack;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  stack = await startLocalStack({ EXPORT_WORKER: 'off' });
  api = apiClient(stack.base);
});

afterAll(async () => {
  if (stack) await stack.interrupt();
  stack?.kill();
});

const cli = (...args: string[]) =>
  runScript('cli/main.ts', [...args, '--principal', 'alice'], {
    PORT: String(stack.httpPort),
    SQS_PORT: String(stack.sqsPort),
    SQS_ENDPOINT: '',
  });

describe('deferred credits over HTTP (docs/contract.md §24)', () => {
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

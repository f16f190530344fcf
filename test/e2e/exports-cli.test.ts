import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCallbackKeys } from '../../cli/commands/keygen';
import { apiClient } from './support/raw-api';
import { runScript } from './support/run-script';
import { type LocalStack, startLocalStack } from './support/stack';

/**
 * `npm run cli -- callback` against `npm start` with the worker off (docs/contract.md §12): the
 * CLI signs an export's progress with the demo secret (Standard Webhooks v1) and with an ed25519
 * signing key whose public key the stack knows (v1a), and the task shows both.
 */

const alice = { principal: 'alice' };
/** An ed25519 pair: the stack knows the public key, only the CLI holds the signing key. */
const KEYS = generateCallbackKeys();
let stack: LocalStack;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  stack = await startLocalStack({
    EXPORT_WORKER: 'off',
    CALLBACK_SECRETS: '',
    CALLBACK_PUBLIC_KEYS: JSON.stringify({ 'export-worker': [KEYS.publicKey] }),
  });
  api = apiClient(stack.base);
});

afterAll(async () => {
  if (stack) await stack.interrupt();
  stack?.kill();
});

describe('the CLI reports on an export no worker runs', () => {
  it('`npm run cli -- callback` reports with Standard Webhooks: v1 with the secret, v1a with a signing key', async () => {
    const account = await api('POST', '/v1/accounts', {
      ...alice,
      key: 'cli-account',
      body: { currency: 'EUR' },
    });
    const accountId = String(account.json.id);
    // Exports are paid: the fee needs money on the account.
    await api('POST', `/v1/accounts/${accountId}/transactions`, {
      ...alice,
      key: 'cli-credit',
      body: { type: 'credit', amount: 1_000, currency: 'EUR' },
    });
    // Its job waits on export-jobs (no worker), well inside the default deadline.
    const exported = await api('POST', `/v1/accounts/${accountId}/exports`, {
      ...alice,
      key: 'cli-export-webhooks',
      body: { format: 'json' },
    });
    const taskId = String(exported.json.id);
    const executionId = String(exported.json.currentExecutionId);
    const report = (...args: string[]) =>
      runScript(
        'cli/main.ts',
        ['callback', '--execution', executionId, '--task', taskId, ...args],
        { PORT: String(stack.httpPort), SQS_PORT: String(stack.sqsPort), SQS_ENDPOINT: '' },
      );
    const v1 = await report(
      '--sequence',
      '1',
      '--status',
      'RUNNING',
      '--scheme',
      'standard-webhooks',
    );
    const v1a = await report(
      '--sequence',
      '2',
      '--progress',
      '60',
      '--signing-key',
      KEYS.signingKey,
    );

    expect(v1.code, v1.output).toBe(0);
    expect(v1.output).toMatch(/\(Standard Webhooks v1\)[\s\S]*HTTP 200[\s\S]*"outcome": "applied"/);
    expect(v1a.code, v1a.output).toBe(0);
    expect(v1a.output).toMatch(
      /\(Standard Webhooks v1a\)[\s\S]*HTTP 200[\s\S]*"outcome": "applied"/,
    );
    const task = (await api('GET', `/v1/tasks/${taskId}`, alice)).json;
    expect(task).toMatchObject({ status: 'RUNNING', progress: 60 });
  });
});

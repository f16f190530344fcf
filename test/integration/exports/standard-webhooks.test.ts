import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHandler } from '../../../functions/api/types';
import { formatPublicKey } from '../../../functions/domain/callbacks/keys';
import { signStandardWebhook } from '../../../functions/domain/callbacks/standard-webhooks';
import { silentLog } from '../../../functions/domain/shared/log';
import { epochSeconds } from '../../../functions/domain/shared/time';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { Task } from '../../../functions/schemas/exports/jobs';
import { httpEvent } from '../../../kit/http-event';
import { APP, callbackBody, signedCallback, webhookCallback } from '../../support/callbacks';
import { testConfig } from '../../support/config';
import { createTestTable } from '../../support/dynamo';

/**
 * The callback route with Standard Webhooks headers (docs/contract.md §7), against DynamoDB
 * Local: signed by the reference `standardwebhooks` package with a whsec_ secret, or with
 * ed25519 (v1a) against a configured whpk_ key. `APP` has a whsec_ secret; `keys-only` has
 * nothing but a public key.
 */
const WHSEC = `whsec_${Buffer.from('a 24-byte whsec_ secret!').toString('base64')}`;
const pair = generateKeyPairSync('ed25519');
const WHPK = formatPublicKey(pair.publicKey);

let client: DynamoDBClient;
let drop: () => Promise<void>;
let app: HttpHandler;

beforeAll(async () => {
  let tableName: string;
  ({ client, tableName, drop } = await createTestTable());
  app = composeHttpHandler({
    dynamo: client,
    config: testConfig({ tableName, exportFee: 0, callbackApplicationId: APP }),
    callbackSecrets: staticCallbackSecrets(JSON.stringify({ [APP]: [WHSEC, WHPK] })),
    log: silentLog,
  });
});
afterAll(() => drop());

const now = () => epochSeconds();

async function newExecution() {
  const principal = { principal: 'alice' };
  const account = await app(
    httpEvent('POST', '/v1/accounts', {
      ...principal,
      idempotencyKey: randomUUID(),
      body: { currency: 'EUR' },
    }),
  );
  const accountId = JSON.parse(account.body).id as string;
  const created = await app(
    httpEvent('POST', `/v1/accounts/${accountId}/exports`, {
      ...principal,
      idempotencyKey: randomUUID(),
      body: { format: 'csv' },
    }),
  );
  const task = Task.parse(JSON.parse(created.body));
  const read = async () =>
    Task.parse(JSON.parse((await app(httpEvent('GET', `/v1/tasks/${task.id}`, principal))).body));
  return { executionId: task.currentExecutionId, read };
}

const answer = (res: { statusCode: number; body: string }) => ({
  status: res.statusCode,
  ...(JSON.parse(res.body) as { outcome?: string; code?: string }),
});

describe('Standard Webhooks on POST /v1/callbacks/{applicationId}', () => {
  it('applies a callback signed by the standardwebhooks package with the whsec_ secret', async () => {
    const { executionId, read } = await newExecution();
    const id = randomUUID();
    const body = callbackBody({ id, executionId, sequence: 1, status: 'RUNNING', progress: 40 });
    const signature = new Webhook(WHSEC).sign(id, new Date(now() * 1000), body);

    const res = await app(webhookCallback(body, { id, signature, timestamp: now() }));

    expect(answer(res)).toEqual({ status: 200, outcome: 'applied' });
    expect(await read()).toMatchObject({ status: 'RUNNING', progress: 40 });
  });

  it('applies an ed25519 (v1a) callback verified with the configured whpk_ key', async () => {
    const { executionId, read } = await newExecution();
    const id = randomUUID();
    const body = callbackBody({ id, executionId, sequence: 1, progress: 70 });
    const signature = signStandardWebhook({
      id,
      timestamp: now(),
      rawBody: Buffer.from(body),
      signingKeys: [pair.privateKey],
    });

    const res = await app(webhookCallback(body, { id, signature, timestamp: now() }));

    expect(answer(res)).toEqual({ status: 200, outcome: 'applied' });
    expect(await read()).toMatchObject({ progress: 70 });
  });

  it('signs Callback-Signature with the decoded bytes of the same whsec_ secret', async () => {
    const { executionId } = await newExecution();

    const res = await app(
      signedCallback(callbackBody({ executionId, sequence: 1 }), { secrets: [WHSEC] }),
    );

    expect(answer(res)).toEqual({ status: 200, outcome: 'applied' });
  });

  it('refuses a webhook-id that is not the CloudEvent id (400, nothing recorded)', async () => {
    const { executionId, read } = await newExecution();
    const id = randomUUID();
    const body = callbackBody({ id, executionId, sequence: 1, progress: 10 });
    const other = randomUUID();
    const signature = new Webhook(WHSEC).sign(other, new Date(now() * 1000), body);

    const refused = await app(webhookCallback(body, { id: other, signature, timestamp: now() }));
    const upper = id.toUpperCase();
    const sameIdOtherCase = await app(
      webhookCallback(body, {
        id: upper,
        signature: new Webhook(WHSEC).sign(upper, new Date(now() * 1000), body),
        timestamp: now(),
      }),
    );

    expect(answer(refused)).toMatchObject({ status: 400, code: 'invalid_callback' });
    expect(answer(sameIdOtherCase)).toEqual({ status: 200, outcome: 'applied' }); // not duplicate
    expect(await read()).toMatchObject({ progress: 10 });
  });

  it.each([
    [
      'a wrong secret',
      { secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`, age: 0 },
      'invalid_signature',
    ],
    ['the whsec_ text used as UTF-8 bytes', { raw: true, age: 0 }, 'invalid_signature'],
    ['a timestamp 301 s old', { age: 301 }, 'signature_expired'],
    ['a timestamp 301 s ahead', { age: -301 }, 'signature_expired'],
  ])('refuses %s with 401 and changes nothing', async (_name, how, code) => {
    const { executionId, read } = await newExecution();
    const id = randomUUID();
    const body = callbackBody({ id, executionId, sequence: 1, status: 'RUNNING' });
    const at = now() - how.age;
    const signer =
      'raw' in how
        ? new Webhook(WHSEC, { format: 'raw' })
        : new Webhook('secret' in how && how.secret ? how.secret : WHSEC);
    const signature = signer.sign(id, new Date(at * 1000), body);

    const res = await app(webhookCallback(body, { id, signature, timestamp: at }));

    expect(answer(res)).toMatchObject({ status: 401, code });
    expect(await read()).toMatchObject({ status: 'CREATED' });
  });
});

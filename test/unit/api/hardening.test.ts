import {
  DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { GATEWAY_ANSWERS_NOTE } from '../../../functions/api/openapi';
import { secretsManagerCallbackSecrets } from '../../../functions/aws/secrets-manager';
import type { CallbackSecrets } from '../../../functions/domain/callbacks/port';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { callbackBody, signedCallback } from '../../support/callbacks';
import { testConfig } from '../../support/config';

/** The HTTP edge hardening of docs/contract.md §2–§7: Unicode, UUID case, consistent reads, identity, secrets. */
const ddb = mockClient(DynamoDBClient);
const appWith = (callbackSecrets: CallbackSecrets) =>
  composeHttpHandler({
    dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
    retry: { sleep: async () => {}, maxAttempts: 2 },
    config: testConfig(),
    callbackSecrets,
    log: silentLog,
  });
const app = appWith(staticCallbackSecrets('{}'));

const ACCOUNT = 'abcdef01-2345-4678-9abc-def012345678';
const accountItem = (ownerId: string) =>
  marshall({
    pk: `ACCOUNT#${ACCOUNT}`,
    sk: 'ACCOUNT',
    id: ACCOUNT,
    ownerId,
    currency: 'EUR',
    balance: 5,
    createdAt: '2026-11-29T10:00:00.000Z',
    updatedAt: '2026-11-29T10:00:00.000Z',
  });

beforeEach(() => ddb.reset());

/** A JSON text with a lone surrogate escape in it, as a client can send it. */
const withLoneSurrogate = (value: Record<string, unknown>, field: string) =>
  JSON.stringify({ ...value, [field]: 'MARK' }).replace('MARK', 'ok\\ud800');

describe('strings must be well-formed Unicode', () => {
  it.each([
    ['/v1/accounts', { currency: 'EUR' }, 'name'],
    [
      `/v1/accounts/${ACCOUNT}/transactions`,
      { type: 'credit', amount: 1, currency: 'EUR' },
      'reference',
    ],
  ])(
    'POST %s with a lone surrogate in %s → 400 validation_failed, nothing stored',
    async (path, body, field) => {
      const res = await app(
        httpEvent('POST', path, {
          principal: 'alice',
          idempotencyKey: 'k',
          rawBody: withLoneSurrogate(body, field as string),
        }),
      );
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: `body.${field}` }],
      });
      expect(ddb.calls()).toHaveLength(0);
    },
  );

  it('refuses a signed callback with a lone surrogate: 400 validation_failed', async () => {
    const secrets = staticCallbackSecrets('{"export-worker":["test-secret-0123456789"]}');
    const body = callbackBody({ executionId: ACCOUNT, sequence: 1 }).replace(
      'urn:worker:export',
      'urn:\\udfff',
    );
    const res = await appWith(secrets)(signedCallback(body));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'validation_failed' });
    expect(ddb.calls()).toHaveLength(0);
  });
});

describe('UUIDs are case-insensitive', () => {
  it('finds an account by its upper-case id', async () => {
    ddb.on(GetItemCommand).resolves({ Item: accountItem('alice') });
    const res = await app(
      httpEvent('GET', `/v1/accounts/${ACCOUNT.toUpperCase()}`, { principal: 'alice' }),
    );
    expect(res.statusCode).toBe(200);
    const key = ddb.commandCalls(GetItemCommand)[0]?.args[0].input.Key;
    expect(key?.pk).toEqual({ S: `ACCOUNT#${ACCOUNT}` });
  });

  it('posts to the lower-case account whatever case the path used', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    const res = await app(
      httpEvent('POST', `/v1/accounts/${ACCOUNT.toUpperCase()}/transactions`, {
        principal: 'alice',
        idempotencyKey: 'k',
        body: { type: 'credit', amount: 1, currency: 'EUR' },
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body).accountId).toBe(ACCOUNT);
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems;
    expect(items?.[1]?.Update?.Key?.pk).toEqual({ S: `ACCOUNT#${ACCOUNT}` });
  });
});

it('lists transactions with a strongly consistent read', async () => {
  ddb.on(GetItemCommand).resolves({ Item: accountItem('alice') });
  ddb.on(QueryCommand).resolves({ Items: [] });
  const res = await app(
    httpEvent('GET', `/v1/accounts/${ACCOUNT}/transactions`, { principal: 'alice' }),
  );
  expect(res.statusCode).toBe(200);
  expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input.ConsistentRead).toBe(true);
});

describe('IAM principals', () => {
  const createAs = async (iamArn: string) => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    const res = await app(
      httpEvent('POST', '/v1/accounts', { iamArn, idempotencyKey: 'k', body: { currency: 'EUR' } }),
    );
    expect(res.statusCode).toBe(201);
    const item = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems?.[1];
    return item?.Put?.Item?.ownerId;
  };

  it('is the role, not the caller-chosen session name, for an assumed role', async () => {
    expect(await createAs('arn:aws:sts::123456789012:assumed-role/tenant-a/any-session')).toEqual({
      S: 'arn:aws:sts::123456789012:assumed-role/tenant-a',
    });
  });

  it('keeps the user ARN for an IAM user', async () => {
    expect(await createAs('arn:aws:iam::123456789012:user/ops')).toEqual({
      S: 'arn:aws:iam::123456789012:user/ops',
    });
  });
});

it('answers 503 unavailable with Retry-After when the callback secrets cannot be read', async () => {
  const fetch = (async () =>
    new Response('{"message":"boom"}', { status: 500 })) as unknown as typeof globalThis.fetch;
  const secrets = secretsManagerCallbackSecrets(
    'arn:aws:secretsmanager:eu-west-1:1:secret:cb',
    60,
    {
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      fetch,
    },
  );
  const res = await appWith(secrets)(
    signedCallback(callbackBody({ executionId: ACCOUNT, sequence: 1 })),
  );
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(JSON.parse(res.body)).toMatchObject({ code: 'unavailable' });
  expect(res.body).not.toContain('boom');
});

it('tells OpenAPI readers that API Gateway answers of its own are not problem+json', async () => {
  const res = await app(httpEvent('GET', '/v1/openapi.json'));
  const doc = JSON.parse(res.body) as { info: { description: string } };
  expect(doc.info.description).toContain(GATEWAY_ANSWERS_NOTE);
  for (const status of ['401', '403', '429', '413']) expect(GATEWAY_ANSWERS_NOTE).toContain(status);
});

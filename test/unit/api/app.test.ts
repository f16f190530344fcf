import {
  DynamoDBClient,
  GetItemCommand,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../functions/api/request';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { recordingLog } from '../../support/fakes/log';

const ddb = mockClient(DynamoDBClient);
const log = recordingLog();
const app = composeHttpHandler({
  dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
  retry: { sleep: async () => {}, maxAttempts: 2 },
  config: testConfig({
    tableName: 'ledger-prod-table',
    idempotencyRetentionSeconds: 1234,
    inboxRetentionSeconds: 5678,
  }),
  callbackSecrets: staticCallbackSecrets('{}'),
  newId: () => '11111111-1111-4111-8111-111111111111',
  clock: () => new Date('2026-11-29T10:00:00.000Z'),
  log,
});

const ACCOUNT = '22222222-2222-4222-8222-222222222222';
const txPath = `/v1/accounts/${ACCOUNT}/transactions`;
const credit = { type: 'credit', amount: 10, currency: 'EUR' };

beforeEach(() => {
  ddb.reset();
  log.error.mockClear();
});

const problemOf = (res: { headers: Record<string, string>; body: string }) => {
  expect(res.headers['content-type']).toBe('application/problem+json');
  return JSON.parse(res.body) as { code: string; status: number; errors?: unknown[] };
};

describe('request checks before any storage call', () => {
  it.each([
    [
      'no principal',
      httpEvent('POST', txPath, { idempotencyKey: 'k', body: credit }),
      401,
      'unauthenticated',
    ],
    [
      'no key',
      httpEvent('POST', txPath, { principal: 'p', body: credit }),
      400,
      'idempotency_key_missing',
    ],
    [
      'an empty key',
      httpEvent('POST', txPath, { principal: 'p', idempotencyKey: '""', body: credit }),
      400,
      'idempotency_key_invalid',
    ],
    [
      'a 256-character key',
      httpEvent('POST', txPath, { principal: 'p', idempotencyKey: 'k'.repeat(256), body: credit }),
      400,
      'idempotency_key_invalid',
    ],
    [
      'a body over 64 KiB',
      httpEvent('POST', txPath, {
        principal: 'p',
        idempotencyKey: 'k',
        rawBody: JSON.stringify({ ...credit, reference: 'x'.repeat(MAX_BODY_BYTES) }),
      }),
      413,
      'payload_too_large',
    ],
    [
      'a form body',
      httpEvent('POST', txPath, {
        principal: 'p',
        idempotencyKey: 'k',
        rawBody: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    ],
    [
      'malformed JSON',
      httpEvent('POST', txPath, { principal: 'p', idempotencyKey: 'k', rawBody: '{"type":' }),
      400,
      'validation_failed',
    ],
    [
      'an unknown field',
      httpEvent('POST', txPath, {
        principal: 'p',
        idempotencyKey: 'k',
        body: { ...credit, fee: 1 },
      }),
      400,
      'validation_failed',
    ],
    [
      'a fractional amount',
      httpEvent('POST', txPath, {
        principal: 'p',
        idempotencyKey: 'k',
        body: { ...credit, amount: 1.5 },
      }),
      400,
      'validation_failed',
    ],
    [
      'an amount over 10^12',
      httpEvent('POST', txPath, {
        principal: 'p',
        idempotencyKey: 'k',
        body: { ...credit, amount: 1e12 + 1 },
      }),
      400,
      'validation_failed',
    ],
    [
      'a made-up currency',
      httpEvent('POST', txPath, {
        principal: 'p',
        idempotencyKey: 'k',
        body: { ...credit, currency: 'XYZ' },
      }),
      400,
      'validation_failed',
    ],
    [
      'a malformed account id',
      httpEvent('POST', '/v1/accounts/nope/transactions', {
        principal: 'p',
        idempotencyKey: 'k',
        body: credit,
      }),
      400,
      'validation_failed',
    ],
    ['an unknown route', httpEvent('GET', '/v1/nothing', { principal: 'p' }), 404, 'not_found'],
  ])('rejects %s', async (_name, event, status, code) => {
    const res = await app(event);
    expect(res.statusCode).toBe(status);
    expect(problemOf(res)).toMatchObject({ status, code });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('names the body in errors for malformed JSON and a missing body', async () => {
    for (const rawBody of ['{"type":', '']) {
      const res = await app(
        httpEvent('POST', txPath, { principal: 'p', idempotencyKey: 'k', rawBody }),
      );
      expect(problemOf(res)).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'body' }],
      });
    }
  });

  it('lists every failing field', async () => {
    const res = await app(
      httpEvent('POST', txPath, {
        principal: 'p',
        idempotencyKey: 'k',
        body: { type: 'refund', amount: 0, currency: 'eur', extra: true },
      }),
    );
    const paths = (problemOf(res).errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual(['body', 'body.amount', 'body.currency', 'body.type']);
  });
});

describe('principals', () => {
  it('accepts an IAM caller ARN as the principal', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    const res = await app(
      httpEvent('POST', '/v1/accounts', {
        iamArn: 'arn:aws:iam::123456789012:user/ops',
        idempotencyKey: 'k',
        body: { currency: 'EUR' },
      }),
    );
    expect(res.statusCode).toBe(201);
    const item = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems?.[1];
    expect(item?.Put?.Item?.ownerId).toEqual({ S: 'arn:aws:iam::123456789012:user/ops' });
  });

  it('never trusts an X-Principal-Id header', async () => {
    const res = await app(
      httpEvent('GET', `/v1/accounts/${ACCOUNT}`, { headers: { 'x-principal-id': 'alice' } }),
    );
    expect(res.statusCode).toBe(401);
  });

  it('answers 404 for an account owned by someone else', async () => {
    ddb.on(GetItemCommand).resolves({
      Item: marshall({
        id: ACCOUNT,
        ownerId: 'bob',
        currency: 'EUR',
        balance: 1,
        createdAt: 'x',
        updatedAt: 'x',
      }),
    });
    const res = await app(httpEvent('GET', `/v1/accounts/${ACCOUNT}`, { principal: 'alice' }));
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('bob');
  });
});

describe('storage failures', () => {
  it('answers 503 with Retry-After and no SDK or table text when throttled', async () => {
    ddb.on(TransactWriteItemsCommand).rejects(
      new ProvisionedThroughputExceededException({
        message: 'Throughput exceeds the current capacity of your table ledger-prod-table',
        $metadata: {},
      }),
    );
    const res = await app(
      httpEvent('POST', txPath, { principal: 'p', idempotencyKey: 'k', body: credit }),
    );
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(problemOf(res).code).toBe('unavailable');
    expect(res.body).not.toMatch(/ledger-prod-table|Throughput|Exception|at /);
    expect(log.error).toHaveBeenCalledOnce();
  });

  it('answers 409 idempotency_key_in_use with Retry-After while the key stays contended', async () => {
    ddb.on(TransactWriteItemsCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );
    const res = await app(
      httpEvent('POST', txPath, { principal: 'p', idempotencyKey: 'k', body: credit }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.headers['retry-after']).toBe('1');
    expect(problemOf(res).code).toBe('idempotency_key_in_use');
  });

  it('does not record a 5xx: the same request after the outage is a first request', async () => {
    ddb
      .on(TransactWriteItemsCommand)
      .rejectsOnce(new ProvisionedThroughputExceededException({ message: 'slow', $metadata: {} }))
      .resolves({});
    const event = () =>
      httpEvent('POST', '/v1/accounts', {
        principal: 'p',
        idempotencyKey: 'k5',
        body: { currency: 'EUR' },
      });
    expect((await app(event())).statusCode).toBe(503);
    const retry = await app(event());
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    // The outage wrote nothing: only the two transaction attempts reached DynamoDB.
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(2);
  });

  it('answers 500 internal without the error text for an unexpected failure', async () => {
    ddb
      .on(GetItemCommand)
      .rejects(new TypeError('Cannot read properties of undefined (reading "S")'));
    const res = await app(httpEvent('GET', `/v1/accounts/${ACCOUNT}`, { principal: 'p' }));
    expect(res.statusCode).toBe(500);
    expect(problemOf(res).code).toBe('internal');
    expect(res.body).not.toContain('Cannot read');
  });
});

describe('openapi document', () => {
  it('is public and declares the configured retention windows', async () => {
    const res = await app(httpEvent('GET', '/v1/openapi.json'));
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info['x-idempotency-retention-seconds']).toBe(1234);
    expect(doc.info['x-inbox-retention-seconds']).toBe(5678);
    expect(doc.components.schemas.PostTransaction.additionalProperties).toBe(false);
  });
});

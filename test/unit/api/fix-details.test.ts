import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { recordingLog } from '../../support/fakes/log';

/** Error details that name the fix, not the symptom (issue 49). */
const ddb = mockClient(DynamoDBClient);
const app = composeHttpHandler({
  dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
  retry: { sleep: async () => {}, maxAttempts: 1 },
  config: testConfig({}),
  callbackSecrets: staticCallbackSecrets('{}'),
  newId: () => '11111111-1111-4111-8111-111111111111',
  clock: () => new Date('2026-11-29T10:00:00.000Z'),
  log: recordingLog(),
});
const ACCOUNT = '22222222-2222-4222-8222-222222222222';
const txPath = `/v1/accounts/${ACCOUNT}/transactions`;

beforeEach(() => ddb.reset());

async function problem(event: ReturnType<typeof httpEvent>): Promise<Record<string, unknown>> {
  const res = await app(event);
  return { ...(JSON.parse(res.body) as Record<string, unknown>), status: res.statusCode };
}

async function amountMessages(amount: number): Promise<string[]> {
  const body = { type: 'credit', amount, currency: 'EUR' };
  const answer = await problem(
    httpEvent('POST', txPath, { principal: 'p', idempotencyKey: 'k', body }),
  );
  expect(answer.status).toBe(400);
  const errors = answer.errors as { path: string; message: string }[];
  return errors.filter((e) => e.path === 'body.amount').map((e) => e.message);
}

describe('error details that name the fix', () => {
  it('401 without a principal names the X-Principal-Id header and its rule', async () => {
    const answer = await problem(httpEvent('GET', `/v1/accounts/${ACCOUNT}`));
    expect(answer).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(answer.detail).toContain('X-Principal-Id: <1-128 characters of A-Z a-z 0-9 . _ : @ ->');
  });

  it('an amount of 1e20 names the bound first, and only the bound', async () => {
    expect(await amountMessages(1e20)).toEqual([
      'must be at most 1000000000000 minor units (1e+12)',
    ]);
    expect(await amountMessages(2 ** 53 + 2)).toEqual([
      'must be at most 1000000000000 minor units (1e+12)',
    ]);
    expect(await amountMessages(0)).toEqual(['must be at least 1 minor unit']);
  });

  it('an in-range fraction still hears that it must be an integer', async () => {
    expect(await amountMessages(12.5)).toEqual(['must be an integer number of minor units']);
  });
});

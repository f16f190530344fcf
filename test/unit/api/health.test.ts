import {
  DynamoDBClient,
  GetItemCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { recordingLog } from '../../support/fakes/log';

/**
 * `GET /v1/health` (docs/contract.md §5): public, for load balancers and the smoke test; 200 only
 * when the table answers a read, else 503 with Retry-After, so a balancer takes it out.
 */
const ddb = mockClient(DynamoDBClient);
const app = composeHttpHandler({
  dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
  retry: { sleep: async () => {}, maxAttempts: 2 },
  config: testConfig({ tableName: 'ledger-prod-table' }),
  callbackSecrets: staticCallbackSecrets('{}'),
  clock: () => new Date('2026-11-29T10:00:00.000Z'),
  log: recordingLog(),
});

beforeEach(() => ddb.reset());

describe('GET /v1/health', () => {
  it('answers 200 without a principal once the table answers a read', async () => {
    ddb.on(GetItemCommand).resolves({});

    const res = await app(httpEvent('GET', '/v1/health'));

    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      status: 'ok',
      checks: { table: 'ok' },
      checkedAt: '2026-11-29T10:00:00.000Z',
    });
    expect(ddb.commandCalls(GetItemCommand)).toHaveLength(1);
    expect(ddb.commandCalls(GetItemCommand)[0]?.args[0].input.TableName).toBe('ledger-prod-table');
  });

  it.each([
    [
      'a network failure',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ],
    [
      'a missing table',
      new ResourceNotFoundException({ message: 'Requested resource not found', $metadata: {} }),
    ],
  ])('answers 503 unavailable with Retry-After on %s, naming no table', async (_name, error) => {
    ddb.on(GetItemCommand).rejects(error);

    const res = await app(httpEvent('GET', '/v1/health'));

    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    const problem = JSON.parse(res.body);
    expect(problem).toMatchObject({ code: 'unavailable', status: 503 });
    expect(problem.detail).toBe('The ledger table did not answer.');
    expect(res.body).not.toContain('ledger-prod-table');
  });
});

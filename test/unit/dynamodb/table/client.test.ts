import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UnavailableError } from '../../../../functions/domain/shared/errors';
import {
  createDynamoClient,
  MAX_DYNAMODB_CALL_MS,
} from '../../../../functions/dynamodb/table/client';
import { storageError } from '../../../../functions/dynamodb/table/sdk-errors';
import { LEDGER_FUNCTION_TIMEOUT } from '../../../../lib/constructs/shared/ledger-function';

/** Accepts every request and never answers: a black-holed path to DynamoDB. */
const stalled = createServer((req) => req.resume());
let endpoint = '';
let requests = 0;

beforeAll(async () => {
  stalled.on('request', () => requests++);
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
});
afterAll(async () => {
  stalled.closeAllConnections();
  await new Promise((resolve) => stalled.close(resolve));
});

it('gives up on a stalled DynamoDB after its attempts, with an error that maps to 503 unavailable', async () => {
  const client = createDynamoClient(
    {
      endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    },
    { connectionTimeoutMs: 200, requestTimeoutMs: 200, maxAttempts: 2 },
  );
  const error = await client
    .send(new GetItemCommand({ TableName: 'ledger', Key: { pk: { S: 'a' }, sk: { S: 'b' } } }))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  client.destroy();
  expect(error).toBeInstanceOf(Error);
  expect(storageError(error)).toBeInstanceOf(UnavailableError);
  expect(requests).toBe(2);
});

it('bounds one DynamoDB call, all attempts included, below the functions’ timeout', () => {
  expect(MAX_DYNAMODB_CALL_MS).toBeLessThan(LEDGER_FUNCTION_TIMEOUT.toMilliseconds());
});

it('is how every Lambda entry point builds its DynamoDB client (no unbounded client)', () => {
  const functionsDir = join(import.meta.dirname, '..', '..', '..', '..', 'functions', 'handlers');
  const handlers = readdirSync(functionsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(functionsDir, entry.name, 'handler.ts'))
    .flatMap((path) => {
      try {
        return [{ path, source: readFileSync(path, 'utf8') }];
      } catch {
        return [];
      }
    })
    .filter(({ source }) => source.includes('DynamoDB') || source.includes('dynamo'));
  expect(handlers.length).toBeGreaterThanOrEqual(4);
  const unbounded = handlers.filter(({ source }) => source.includes('new DynamoDBClient('));
  expect(unbounded.map(({ path }) => path)).toEqual([]);
  for (const { source } of handlers) expect(source).toContain('createDynamoClient(');
});

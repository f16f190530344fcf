import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { expect, it } from 'vitest';
import { createLedgerStore } from '../../../../functions/dynamodb/accounts/store';

it("reuses the attempt's ClientRequestToken when the SDK retries a lost response", async () => {
  const tokens: string[] = [];
  let calls = 0;
  const client = new DynamoDBClient({
    region: 'eu-west-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    maxAttempts: 3,
    requestHandler: {
      async handle(request: { body?: unknown }) {
        tokens.push(JSON.parse(String(request.body)).ClientRequestToken);
        calls++;
        // The first response is lost on the way back (the write may have committed).
        if (calls === 1) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
        return {
          // The shape of @smithy/protocol-http's HttpResponse (not a direct dependency).
          response: {
            statusCode: 200,
            headers: { 'content-type': 'application/x-amz-json-1.0' },
            body: new TextEncoder().encode('{}'),
          },
        };
      },
    },
  });
  const store = createLedgerStore({ client, tableName: 'ledger' });
  const result = await store.createAccount(
    {
      scopeId: 's',
      fingerprint: 'f',
      nowSeconds: 1,
      expiresAt: 2,
      response: { statusCode: 201, body: '{}' },
    },
    {
      id: 'a',
      ownerId: 'o',
      currency: 'EUR',
      balance: 0,
      available: 0,
      overdraftLimit: 0,
      status: 'open' as const,
      creditIntake: 'direct' as const,
      version: 0,
      createdAt: 'x',
      updatedAt: 'x',
    },
  );
  expect(result).toEqual({ kind: 'committed' });
  expect(calls).toBe(2);
  expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(tokens[1]).toBe(tokens[0]);
});

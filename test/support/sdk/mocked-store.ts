import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { IdempotencyClaim } from '../../../functions/domain/idempotency/port';
import type { StoreOptions } from '../../../functions/dynamodb/table/transact';
import { requestClaim } from '../fakes/claims';

/**
 * What a store's unit test builds it from: a client that aws-sdk-client-mock intercepts
 * (`mockClient(DynamoDBClient)` in the test), table `ledger`, two attempts and no pause between.
 */
export const mockedStoreOptions = (): StoreOptions => ({
  client: new DynamoDBClient({ region: 'eu-west-1' }),
  tableName: 'ledger',
  retry: { sleep: async () => {}, maxAttempts: 2 },
});

/** A claim as a command hands it to a store: its first answer `201 {}` already rendered. */
export const createdClaim: IdempotencyClaim = {
  ...requestClaim,
  fingerprint: 'fp',
  expiresAt: 2000,
  response: { statusCode: 201, body: '{}' },
};

import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { HealthPort } from '../../domain/health/port';
import { keys } from '../table/keys';
import type { StoreOptions } from '../table/transact';

/**
 * The health check's read: one eventually consistent GetItem of a key no item has (0.5 read
 * units), with the permissions the HTTP function already holds.
 */
export function createHealthStore(options: Pick<StoreOptions, 'client' | 'tableName'>): HealthPort {
  const { client, tableName } = options;
  return {
    async readTable() {
      await client.send(new GetItemCommand({ TableName: tableName, Key: marshall(keys.health()) }));
    },
  };
}

import { randomUUID } from 'node:crypto';
import {
  BatchWriteItemCommand,
  type DynamoDBClient,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { LedgerEntry } from '../../../functions/domain/accounts/model';
import { type ExecutionStatus, newExecution } from '../../../functions/domain/exports/model';
import { newAccountItem } from '../../../functions/dynamodb/accounts/items';
import { newExecutionItems, newTaskItem } from '../../../functions/dynamodb/exports/items';
import { keys } from '../../../functions/dynamodb/table/keys';

/** Test seeding for exports: entries written straight to the table, as many as a test needs. */

export const OWNER = 'export-owner';

export async function seedAccount(client: DynamoDBClient, tableName: string): Promise<string> {
  const id = randomUUID();
  const at = '2026-01-01T00:00:00.000Z';
  const account = {
    id,
    ownerId: OWNER,
    currency: 'EUR',
    balance: 0,
    available: 0,
    overdraftLimit: 0,
    status: 'open' as const,
    creditIntake: 'direct' as const,
    version: 0,
    createdAt: at,
    effectiveAt: at,
    updatedAt: at,
  };
  await client.send(
    new TransactWriteItemsCommand({ TransactItems: [newAccountItem(tableName, account)] }),
  );
  return id;
}

/** Entry `i` of a seeded account: one a millisecond from `start`, credits and debits in turn. */
export function seededEntry(accountId: string, i: number, start: Date): LedgerEntry {
  return {
    id: randomUUID(),
    accountId,
    type: i % 3 === 0 ? 'debit' : 'credit',
    amount: 1 + (i % 997),
    currency: 'EUR',
    ...(i % 5 === 0 ? { reference: `=seed ${i}, "quoted"` } : {}),
    origin: i % 2 ? 'event' : 'http',
    createdAt: new Date(start.getTime() + i).toISOString(),
    effectiveAt: new Date(start.getTime() + i).toISOString(),
  };
}

/** Writes `count` entries with BatchWriteItem, `parallel` batches of 25 at a time. */
export async function seedEntries(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  count: number,
  start: Date,
  parallel = 8,
): Promise<void> {
  let next = 0;
  async function lane() {
    while (next < count) {
      const from = next;
      next = Math.min(count, next + 25);
      let requests = Array.from({ length: next - from }, (_, k) => {
        const entry = seededEntry(accountId, from + k, start);
        const item = {
          ...keys.entry(accountId, entry.createdAt, entry.id),
          kind: 'entry',
          ...entry,
        };
        return { PutRequest: { Item: marshall(item) } };
      });
      while (requests.length > 0) {
        const { UnprocessedItems } = await client.send(
          new BatchWriteItemCommand({ RequestItems: { [tableName]: requests } }),
        );
        requests = (UnprocessedItems?.[tableName] ?? []) as typeof requests;
      }
    }
  }
  await Promise.all(Array.from({ length: parallel }, lane));
}

/** A task with one execution of the export application, as the export route writes them. */
export async function seedExecution(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  options: { status?: ExecutionStatus; deadline?: Date; createdAt?: Date } = {},
): Promise<{ taskId: string; executionId: string }> {
  const taskId = randomUUID();
  const executionId = randomUUID();
  const created = options.createdAt ?? new Date();
  const at = created.toISOString();
  const timeoutSeconds = options.deadline
    ? (options.deadline.getTime() - created.getTime()) / 1000
    : 900;
  const execution = {
    ...newExecution(executionId, taskId, 'export-worker', created, timeoutSeconds),
    status: options.status ?? 'CREATED',
  };
  const [executionItem, pointer] = newExecutionItems(tableName, execution);
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        newTaskItem(tableName, {
          id: taskId,
          accountId,
          ownerId: OWNER,
          format: 'csv',
          status: execution.status,
          progress: 0,
          currentExecutionId: executionId,
          createdAt: at,
          updatedAt: at,
        }),
        ...(executionItem ? [executionItem] : []),
        ...(pointer ? [pointer] : []),
      ],
    }),
  );
  return { taskId, executionId };
}

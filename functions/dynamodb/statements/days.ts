import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DaySums } from '../../domain/statements/days';
import type { DaySumsPort } from '../../domain/statements/port';
import { EFFECTIVE_DAY_SK_PREFIX, keys } from '../table/keys';
import { queryEach } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import type { StoreOptions } from '../table/transact';

/** `kind` of a day-sums item (functions/dynamodb/table/keys.ts `effectiveDay`). */
export const EFFECTIVE_DAY_KIND = 'effective-day';

/** The day sums of `month` (`YYYY-MM`), ascending: one strongly consistent Query of ≤ 31 items. */
export async function readEffectiveDays(
  client: DynamoDBClient,
  tableName: string,
  accountId: string,
  month: string,
): Promise<DaySums[]> {
  const { pk } = keys.effectiveDay(accountId, month);
  const days: DaySums[] = [];
  await queryEach(
    client,
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :month)',
      ExpressionAttributeValues: marshall({
        ':pk': pk,
        ':month': `${EFFECTIVE_DAY_SK_PREFIX}${month}-`,
      }),
      ConsistentRead: true,
    },
    (items) => {
      for (const item of items) {
        days.push({
          day: String(item.sk).slice(EFFECTIVE_DAY_SK_PREFIX.length),
          credits: Number(item.credits ?? 0),
          debits: Number(item.debits ?? 0),
          entries: Number(item.entries ?? 0),
          ...(typeof item.addedAt === 'string' ? { addedAt: item.addedAt } : {}),
        });
      }
    },
  );
  return days;
}

/**
 * One day's sums added once per account update: the update's versions must all be after the
 * last one the day added (`through`), else it was added already (a redelivery) and nothing is.
 */
function addDayCommand(
  tableName: string,
  accountId: string,
  firstVersion: number,
  version: number,
  day: DaySums,
  at: string,
): UpdateItemCommand {
  return new UpdateItemCommand({
    TableName: tableName,
    Key: marshall(keys.effectiveDay(accountId, day.day)),
    UpdateExpression: 'SET #kind = :kind, #through = :version, #at = :at ADD #c :c, #d :d, #n :n',
    ConditionExpression: 'attribute_not_exists(#through) OR #through < :first',
    ExpressionAttributeNames: {
      '#kind': 'kind',
      '#through': 'through',
      '#at': 'addedAt',
      '#c': 'credits',
      '#d': 'debits',
      '#n': 'entries',
    },
    ExpressionAttributeValues: marshall({
      ':kind': EFFECTIVE_DAY_KIND,
      ':version': version,
      ':at': at,
      ':first': firstVersion,
      ':c': day.credits,
      ':d': day.debits,
      ':n': day.entries,
    }),
  });
}

/** The journal projector's day sums on the table (docs/contract.md §31, §36). */
export function createDaySumsStore({ client, tableName }: StoreOptions): DaySumsPort {
  return {
    async addDays(accountId, firstVersion, version, days, at) {
      await Promise.all(
        days.map(async (day) => {
          try {
            await client.send(addDayCommand(tableName, accountId, firstVersion, version, day, at));
          } catch (error) {
            // Added by an earlier delivery of the same update.
            if (error instanceof ConditionalCheckFailedException) return;
            throw storageError(error);
          }
        }),
      );
    },
  };
}

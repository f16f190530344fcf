import type { AttributeValue, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { EFFECTIVE_INDEX } from '../../contract/effective-time';
import type { AccountRecord } from '../../domain/accounts/model';
import { ValidationError } from '../../domain/shared/errors';
import { addMovements, type EffectiveRange, NO_SUMS } from '../../domain/statements/model';
import type {
  PeriodCloseAccount,
  PeriodCloseResult,
  StatementPort,
} from '../../domain/statements/port';
import {
  CLOSED_THROUGH,
  toEffectiveHistory,
  toEffectiveMovement,
} from '../accounts/effective-history';
import { toAccountRecord, toLedgerEntry } from '../accounts/items';
import { claimedFailure, claimItem, claimRecorder } from '../idempotency/command';
import { fenceGates, readIntakePartitions } from '../intake/partitions';
import { ENTRY_SK_PREFIX, keys } from '../table/keys';
import { getItem, queryEach } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { readEffectiveDays } from './days';

/** `effectiveKey` of `[from, to)`: every key starts with its effectiveAt then `#`. */
const RANGE_CONDITION = '#account = :account AND #key BETWEEN :from AND :to';
const INDEX_NAMES = {
  '#account': EFFECTIVE_INDEX.accountAttribute,
  '#key': EFFECTIVE_INDEX.keyAttribute,
};

function rangeValues(accountId: string, range: EffectiveRange) {
  // `to#…` sorts after `to`, so BETWEEN from AND to holds exactly the keys of [from, to).
  return marshall({ ':account': accountId, ':from': range.from, ':to': range.to });
}

/** Opaque statement cursor: the index key and entry key of the last item returned. */
function encodeStatementCursor(item: Record<string, unknown>): string {
  const cursor = { k: item[EFFECTIVE_INDEX.keyAttribute], sk: item.sk };
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

function decodeStatementCursor(cursor: string, range: EffectiveRange): { k: string; sk: string } {
  const invalid = new ValidationError('The cursor is not one this API returned.', [
    { path: 'query.cursor', message: 'invalid cursor' },
  ]);
  try {
    const { k, sk } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      k?: unknown;
      sk?: unknown;
    };
    if (typeof k !== 'string' || typeof sk !== 'string') throw invalid;
    if (k < range.from || k >= range.to || !sk.startsWith(ENTRY_SK_PREFIX) || sk.length > 200) {
      throw invalid;
    }
    return { k, sk };
  } catch (error) {
    if (error === invalid) throw invalid;
    throw Object.assign(invalid, { cause: error });
  }
}

/**
 * Step 3 of a period close (docs/contract.md §26, §36): `closedThrough` moves forward only —
 * the owner's account, its closedThrough absent or before `through`, while its intake mode and
 * shard count are still those read (a concurrent switch to deferred makes the close fence the
 * new gates first). Never conditioned on `version`: credits keep posting. No journal record.
 */
function closePeriodItem(
  tableName: string,
  account: PeriodCloseAccount,
  through: string,
): TransactWriteItem {
  const names: Record<string, string> = {
    '#closedThrough': CLOSED_THROUGH,
    '#ownerId': 'ownerId',
    '#creditIntake': 'creditIntake',
    '#intakeShards': 'intakeShards',
  };
  const values: Record<string, unknown> = {
    ':through': through,
    ':ownerId': account.ownerId,
    ':mode': account.creditIntake,
  };
  const mode =
    account.creditIntake === 'direct'
      ? '(attribute_not_exists(#creditIntake) OR #creditIntake = :mode)'
      : '#creditIntake = :mode';
  let shards = 'attribute_not_exists(#intakeShards)';
  if (account.intakeShards !== undefined) {
    values[':shards'] = account.intakeShards;
    shards = '#intakeShards = :shards';
  }
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.account(account.id)),
      UpdateExpression: 'SET #closedThrough = :through',
      ConditionExpression:
        'attribute_exists(pk) AND #ownerId = :ownerId AND ' +
        `(attribute_not_exists(#closedThrough) OR #closedThrough < :through) AND ${mode} AND ${shards}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: marshall(values),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** Whether the account as it stood has another intake mode or shard count than was read. */
const intakeMoved = (read: PeriodCloseAccount, stood: AccountRecord): boolean =>
  stood.creditIntake !== read.creditIntake || stood.intakeShards !== read.intakeShards;

/** Statements, effective balances and period closes on the table and its effective index. */
export function createStatementStore(options: StoreOptions): StatementPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);

  return {
    async getEffectiveAccount(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item
        ? { account: toAccountRecord(item), history: toEffectiveHistory(item) }
        : undefined;
    },

    async effectiveSums(accountId, range, split) {
      let sums = NO_SUMS;
      if (range.from >= range.to) return sums;
      await queryEach(
        client,
        {
          TableName: tableName,
          IndexName: EFFECTIVE_INDEX.name,
          KeyConditionExpression: RANGE_CONDITION,
          ExpressionAttributeNames: { ...INDEX_NAMES, '#type': 'type' },
          ExpressionAttributeValues: rangeValues(accountId, range),
          ProjectionExpression: 'effectiveAt, #type, direction, amount',
        },
        (page) => {
          sums = addMovements(sums, page.map(toEffectiveMovement), split);
        },
      );
      return sums;
    },

    effectiveDays: (accountId, month) => readEffectiveDays(client, tableName, accountId, month),

    async countEffective(accountId, range) {
      let count = 0;
      let start: Record<string, AttributeValue> | undefined;
      try {
        do {
          const page = await client.send(
            new QueryCommand({
              TableName: tableName,
              IndexName: EFFECTIVE_INDEX.name,
              KeyConditionExpression: RANGE_CONDITION,
              ExpressionAttributeNames: INDEX_NAMES,
              ExpressionAttributeValues: rangeValues(accountId, range),
              Select: 'COUNT',
              ExclusiveStartKey: start,
            }),
          );
          count += page.Count ?? 0;
          start = page.LastEvaluatedKey;
        } while (start);
        return count;
      } catch (error) {
        throw storageError(error);
      }
    },

    async statementItems(accountId, range, limit, cursor) {
      const start = cursor === undefined ? undefined : decodeStatementCursor(cursor, range);
      const { pk } = keys.account(accountId);
      try {
        // One extra item tells whether another page exists without an empty last page.
        const { Items = [] } = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: EFFECTIVE_INDEX.name,
            KeyConditionExpression: RANGE_CONDITION,
            ExpressionAttributeNames: INDEX_NAMES,
            ExpressionAttributeValues: rangeValues(accountId, range),
            Limit: limit + 1,
            ExclusiveStartKey: start && {
              ...marshall({ pk, sk: start.sk }),
              ...marshall({
                [EFFECTIVE_INDEX.accountAttribute]: accountId,
                [EFFECTIVE_INDEX.keyAttribute]: start.k,
              }),
            },
          }),
        );
        const page = Items.slice(0, limit).map((item) => unmarshall(item));
        const last = page.at(-1);
        return {
          items: page.map(toLedgerEntry),
          nextCursor: Items.length > limit && last ? encodeStatementCursor(last) : null,
        };
      } catch (error) {
        throw storageError(error);
      }
    },

    async closePeriod(claim, account, through): Promise<PeriodCloseResult> {
      const shards = account.intakeShards ?? 0;
      if (shards > 0) {
        // (1) every gate refuses credits into the period; (2) then what they accepted before.
        await fenceGates(client, tableName, account.id, shards, through);
        const partitions = await readIntakePartitions(client, tableName, account.id, shards);
        if (partitions.some(({ pending }) => pending.some((p) => p.entry.effectiveAt <= through))) {
          return { kind: 'pending_credits' };
        }
      }
      const outcome = await transactWithRetry(
        client,
        [
          { role: 'claim', item: claimItem(tableName, claim), decisive: true },
          { role: 'account', item: closePeriodItem(tableName, account, through) },
        ],
        retry,
      );
      if (outcome.kind === 'committed') return outcome;
      const claimed = claimedFailure(outcome.failed);
      if (claimed) return claimed;
      const old = outcome.failed.get('account');
      const stood = old ? toAccountRecord(old) : undefined;
      if (stood && stood.ownerId === account.ownerId && intakeMoved(account, stood)) {
        return { kind: 'intake_moved' };
      }
      return { kind: 'account_rejected', account: stood };
    },

    ...claimRecorder(client, tableName, retry),
  };
}

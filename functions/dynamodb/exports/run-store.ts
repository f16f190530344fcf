import {
  type AttributeValue,
  ConditionalCheckFailedException,
  type DynamoDBClient,
  QueryCommand,
  type QueryCommandOutput,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { LedgerEntry } from '../../domain/accounts/model';
import { TERMINAL_STATUSES } from '../../domain/exports/model';
import type { ExportRunPort, RunClaim } from '../../domain/exports/port';
import { refusedClaim } from '../../domain/exports/run';
import { toLedgerEntry } from '../accounts/items';
import { ENTRY_SK_PREFIX, keys } from '../table/keys';
import { storageError } from '../table/sdk-errors';
import { toExecutionRecord } from './items';

export interface ExportRunStoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** Entries per Query page (bounded memory per page). @default 1000 */
  readonly pageSize?: number;
}

/**
 * Sorts after every character of an entry id (UUIDs), so `ENTRY#<upTo>#~` bounds every entry
 * created at or before `upTo`.
 */
const AFTER_ANY_ID = '~';

/** DynamoDB adapter for the export worker: the run lease and the account's entries. */
export function createExportRunStore(options: ExportRunStoreOptions): ExportRunPort {
  const { client, tableName } = options;
  const pageSize = options.pageSize ?? 1000;

  return {
    async claimRun(job, now, leaseUntil): Promise<RunClaim> {
      const terminal = TERMINAL_STATUSES.map((_, i) => `:terminal${i}`);
      try {
        // The lease is its own attribute: it leaves `version` alone, so callbacks and the
        // sweeper's guarded writes are not disturbed by it.
        const { Attributes } = await client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: marshall(keys.execution(job.taskId, job.executionId)),
            UpdateExpression: 'SET #leaseUntil = :leaseUntil',
            ConditionExpression:
              `attribute_exists(pk) AND NOT #status IN (${terminal.join(', ')}) ` +
              'AND (attribute_not_exists(#deadline) OR #deadline > :now) ' +
              'AND (attribute_not_exists(#leaseUntil) OR #leaseUntil <= :now)',
            ExpressionAttributeNames: {
              '#status': 'status',
              '#deadline': 'deadline',
              '#leaseUntil': 'leaseUntil',
            },
            ExpressionAttributeValues: marshall({
              ':now': now.toISOString(),
              ':leaseUntil': leaseUntil.toISOString(),
              ...Object.fromEntries(TERMINAL_STATUSES.map((status, i) => [terminal[i], status])),
            }),
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        const claimed = toExecutionRecord(unmarshall(Attributes ?? {}));
        return { kind: 'claimed', lastSequence: claimed.lastSequence };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw storageError(error);
        const old = error.Item ? unmarshall(error.Item) : undefined;
        return refusedClaim(
          old && {
            status: toExecutionRecord(old).status,
            ...(typeof old.deadline === 'string' ? { deadline: old.deadline } : {}),
            ...(typeof old.leaseUntil === 'string' ? { leaseUntil: old.leaseUntil } : {}),
          },
          now,
        );
      }
    },

    async *entryPages(accountId, upTo): AsyncGenerator<readonly LedgerEntry[]> {
      let startKey: Record<string, AttributeValue> | undefined;
      do {
        let page: QueryCommandOutput;
        try {
          page = await client.send(
            new QueryCommand({
              TableName: tableName,
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
              ExpressionAttributeValues: marshall({
                ':pk': keys.account(accountId).pk,
                ':first': ENTRY_SK_PREFIX,
                ':last': `${ENTRY_SK_PREFIX}${upTo}#${AFTER_ANY_ID}`,
              }),
              ScanIndexForward: true,
              ConsistentRead: true,
              Limit: pageSize,
              ...(startKey ? { ExclusiveStartKey: startKey } : {}),
            }),
          );
        } catch (error) {
          throw storageError(error);
        }
        yield (page.Items ?? []).map((item) => toLedgerEntry(unmarshall(item)));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    },
  };
}

import { ConditionalCheckFailedException, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type {
  CreateMonitorResult,
  MonitorEvaluationPort,
  MonitorPort,
} from '../../domain/monitors/port';
import { accountFigures } from '../accounts/items';
import {
  claimedFailure,
  claimItem,
  claimRecorder,
  unexpectedFailure,
} from '../idempotency/command';
import { keys, MONITOR_SK_PREFIX } from '../table/keys';
import { getItem, queryAll } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { accountAsReadItem, countDownItem, countUpItem, newMonitorItem, toMonitor } from './items';

type Role = 'claim' | 'count' | 'monitor' | 'account';

/** The monitors of an account, by creation: one strongly consistent Query of their partition. */
function monitorsOf(options: StoreOptions) {
  const { client, tableName } = options;
  return async (accountId: string) => {
    const items = await queryAll(client, {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: marshall({
        ':pk': keys.monitorCount(accountId).pk,
        ':prefix': MONITOR_SK_PREFIX,
      }),
      ConsistentRead: true,
    });
    return items
      .map((item) => toMonitor(item))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  };
}

/** Balance monitors on the table for the routes (docs/contract.md §28). */
export function createMonitorStore(options: StoreOptions): MonitorPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  return {
    ...claimRecorder(client, tableName, retry),

    async getAccount(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? accountFigures(accountId, item) : undefined;
    },

    async createMonitor(claim, monitor, read): Promise<CreateMonitorResult> {
      const outcome = await transactWithRetry<Role>(
        client,
        [
          { role: 'claim', item: claimItem(tableName, claim), decisive: true },
          { role: 'count', item: countUpItem(tableName, monitor.accountId) },
          { role: 'monitor', item: newMonitorItem(tableName, monitor) },
          { role: 'account', item: accountAsReadItem(tableName, read) },
        ],
        retry,
      );
      if (outcome.kind === 'committed') return outcome;
      const claimed = claimedFailure(outcome.failed);
      if (claimed) return claimed;
      if (outcome.failed.has('account')) return { kind: 'account_moved' };
      if (outcome.failed.has('count')) return { kind: 'limit_reached' };
      throw unexpectedFailure(outcome.failed);
    },

    listMonitors: monitorsOf(options),

    async getMonitor(accountId, monitorId) {
      const item = await getItem(client, tableName, keys.monitor(accountId, monitorId));
      return item ? toMonitor(item) : undefined;
    },

    async deleteMonitor(accountId, monitorId) {
      const outcome = await transactWithRetry<Role>(
        client,
        [
          {
            role: 'monitor',
            item: {
              Delete: {
                TableName: tableName,
                Key: marshall(keys.monitor(accountId, monitorId)),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
          },
          { role: 'count', item: countDownItem(tableName, accountId) },
        ],
        retry,
      );
      // Already gone: DELETE is idempotent.
      if (outcome.kind === 'conditions_failed' && !outcome.failed.has('monitor')) {
        throw unexpectedFailure(outcome.failed);
      }
    },
  };
}

/** The projector's side: read the monitors, record flips conditionally, confirm publication. */
export function createMonitorEvaluationStore(options: StoreOptions): MonitorEvaluationPort {
  const { client, tableName } = options;
  return {
    listMonitors: monitorsOf(options),

    async recordFlips(from, to, flips) {
      try {
        await client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: marshall(keys.monitor(from.accountId, from.id)),
            UpdateExpression:
              'SET #state = :state, stateSince = :since, #sequence = :to, ' +
              'pending = list_append(if_not_exists(pending, :none), :flips)',
            ConditionExpression: 'attribute_exists(pk) AND #sequence = :from',
            ExpressionAttributeNames: { '#state': 'state', '#sequence': 'sequence' },
            ExpressionAttributeValues: marshall({
              ':state': to.state,
              ':since': to.stateSince,
              ':to': to.sequence,
              ':from': from.sequence,
              ':none': [],
              ':flips': flips,
            }),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { kind: 'recorded' };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw storageError(error);
        return {
          kind: 'moved',
          monitor: error.Item ? toMonitor(unmarshall(error.Item)) : undefined,
        };
      }
    },

    async confirmPublished(at) {
      try {
        await client.send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: marshall(keys.monitor(at.accountId, at.id)),
            UpdateExpression: 'REMOVE pending',
            ConditionExpression: '#sequence = :at',
            ExpressionAttributeNames: { '#sequence': 'sequence' },
            ExpressionAttributeValues: marshall({ ':at': at.sequence }),
          }),
        );
      } catch (error) {
        // Flipped again meanwhile (or deleted): its writer publishes the whole pending list.
        if (error instanceof ConditionalCheckFailedException) return;
        throw storageError(error);
      }
    },
  };
}

import {
  type DynamoDBClient,
  GetItemCommand,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { ExecutionDeadlinePort, ExecutionTimeout } from '../core/execution-deadline';
import { type ExecutionStatus, TERMINAL_STATUSES } from '../core/tasks';
import { LEAVE_DUE_INDEX } from './due-index';
import { keys } from './keys';
import { storageError } from './sdk-errors';
import { taskProjectionItem, toExecutionRecord } from './task-items';
import { DEFAULT_RETRY, type RetryPolicy, transactWithRetry } from './transact';

export interface ExecutionDeadlineStoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly retry?: Partial<RetryPolicy>;
}

const TIMED_OUT: ExecutionStatus = 'TIMED_OUT';

/** The execution leaves the due index as it times out, only from the version that was read. */
export function timeOutExecutionItem(tableName: string, t: ExecutionTimeout): TransactWriteItem {
  const terminal = TERMINAL_STATUSES.map((_, i) => `:terminal${i}`);
  return {
    Update: {
      TableName: tableName,
      Key: marshall(keys.execution(t.taskId, t.executionId)),
      UpdateExpression: `SET #status = :timedOut, #version = :next, #updatedAt = :at ${LEAVE_DUE_INDEX.clause}`,
      ConditionExpression: `#version = :expected AND NOT #status IN (${terminal.join(', ')})`,
      ExpressionAttributeNames: {
        '#status': 'status',
        '#version': 'version',
        '#updatedAt': 'updatedAt',
        ...LEAVE_DUE_INDEX.names,
      },
      ExpressionAttributeValues: marshall({
        ':timedOut': TIMED_OUT,
        ':expected': t.expectedVersion,
        ':next': t.expectedVersion + 1,
        ':at': t.at,
        ...Object.fromEntries(TERMINAL_STATUSES.map((status, i) => [terminal[i], status])),
      }),
    },
  };
}

/** DynamoDB adapter for the sweeper's execution deadlines (docs/contract.md §12). */
export function createExecutionDeadlineStore(
  options: ExecutionDeadlineStoreOptions,
): ExecutionDeadlinePort {
  const { client, tableName } = options;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };

  async function getItem(key: { pk: string; sk: string }) {
    try {
      const { Item } = await client.send(
        new GetItemCommand({ TableName: tableName, Key: marshall(key), ConsistentRead: true }),
      );
      return Item ? unmarshall(Item) : undefined;
    } catch (error) {
      throw storageError(error);
    }
  }

  return {
    async readExecution(taskId, executionId) {
      const [execution, task] = await Promise.all([
        getItem(keys.execution(taskId, executionId)),
        getItem(keys.task(taskId)),
      ]);
      if (!execution || !task) return undefined;
      return {
        execution: toExecutionRecord(execution),
        currentExecutionId: String(task.currentExecutionId),
      };
    },

    async timeOutExecution(timeout) {
      const outcome = await transactWithRetry(
        client,
        [
          { role: 'execution', item: timeOutExecutionItem(tableName, timeout), decisive: true },
          ...(timeout.current
            ? [
                {
                  role: 'task' as const,
                  // Only while the execution is still current (a rerun may have replaced it).
                  item: taskProjectionItem(tableName, {
                    taskId: timeout.taskId,
                    currentExecutionId: timeout.executionId,
                    status: TIMED_OUT,
                    progress: timeout.progress,
                    at: timeout.at,
                  }),
                },
              ]
            : []),
        ],
        retry,
      );
      return outcome.kind === 'committed' ? 'committed' : 'moved';
    },
  };
}

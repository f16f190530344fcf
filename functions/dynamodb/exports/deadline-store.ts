import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { type ExecutionStatus, TERMINAL_STATUSES } from '../../domain/exports/model';
import type { ExecutionDeadlinePort, ExecutionTimeout } from '../../domain/exports/port';
import { LEAVE_DUE_INDEX } from '../table/due-index';
import { type ItemKey, keys } from '../table/keys';
import { getItem } from '../table/reads';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { taskProjectionItem, toExecutionRecord } from './items';

export type ExecutionDeadlineStoreOptions = StoreOptions;

const TIMED_OUT: ExecutionStatus = 'TIMED_OUT';

/** The execution leaves the due index as it times out, only from the version that was read. */
function timeOutExecutionItem(tableName: string, t: ExecutionTimeout): TransactWriteItem {
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
  const retry = retryPolicy(options);

  const read = (key: ItemKey) => getItem(client, tableName, key);

  return {
    async readExecution(taskId, executionId) {
      const [execution, task] = await Promise.all([
        read(keys.execution(taskId, executionId)),
        read(keys.task(taskId)),
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

import { marshall } from '@aws-sdk/util-dynamodb';
import { EXECUTION_ITEM_KIND } from '../../contract/names';
import type { CallbackPort, CallbackWrite, CallbackWriteResult } from '../../domain/callbacks/port';
import type { ExecutionRecord, TaskRecord, TaskState } from '../../domain/exports/model';
import type { RerunResult, TaskPort } from '../../domain/exports/port';
import { sameInboxContent } from '../../domain/idempotency/fingerprint';
import { writeCommand } from '../accounts/command';
import { createLedgerStore } from '../accounts/store';
import { claimItem } from '../idempotency/command';
import { inboxItem } from '../idempotency/inbox';
import { keys } from '../table/keys';
import { getItem, queryAll } from '../table/reads';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import {
  executionProjectionItem,
  newExecutionItems,
  outboxItem,
  rerunTaskItem,
  taskProjectionItem,
  toExecutionRecord,
  toTaskRecord,
} from './items';

type Role = 'claim' | 'account' | 'entry' | 'pointer' | 'payment' | 'task' | 'other';

/** DynamoDB adapter for export tasks, executions and the outbox. */
export function createTaskStore(options: StoreOptions): TaskPort & CallbackPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  const ledger = createLedgerStore(options);

  async function getTaskState(taskId: string): Promise<TaskState | undefined> {
    // Executions sort before the task item, so a truncated page would lose the task itself.
    const items = await queryAll(client, {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: marshall({ ':pk': keys.task(taskId).pk }),
      ConsistentRead: true,
    });
    let task: TaskRecord | undefined;
    const executions: ExecutionRecord[] = [];
    for (const item of items) {
      if (item.kind === 'task') task = toTaskRecord(item);
      else if (item.kind === EXECUTION_ITEM_KIND) executions.push(toExecutionRecord(item));
    }
    return task ? { task, executions } : undefined;
  }

  const write = (parts: TransactPart<Role>[]): Promise<RerunResult> =>
    writeCommand(client, parts, retry, (failed) => {
      if (!failed.has('task')) return undefined;
      const task = failed.get('task');
      return { kind: 'task_rejected' as const, task: task ? toTaskRecord(task) : undefined };
    });

  return {
    getAccount: (accountId) => ledger.getAccount(accountId),
    recordResponse: (claim) => ledger.recordResponse(claim),
    findRecord: (key) => ledger.findRecord(key),
    getTask: getTaskState,

    async findExecution(executionId, taskId) {
      let owner = taskId;
      if (owner === undefined) {
        const pointer = await getItem(client, tableName, keys.executionPointer(executionId));
        if (!pointer) return undefined;
        owner = String(pointer.taskId);
      }
      const state = await getTaskState(owner);
      const execution = state?.executions.find((e) => e.id === executionId);
      return state && execution ? { execution, task: state.task } : undefined;
    },

    async applyCallback(write: CallbackWrite): Promise<CallbackWriteResult> {
      type CallbackRole = 'inbox' | 'projection';
      const parts: TransactPart<CallbackRole>[] = [
        { role: 'inbox', item: inboxItem(tableName, write.inbox), decisive: true },
      ];
      if (write.execution) {
        parts.push({
          role: 'projection',
          item: executionProjectionItem(tableName, write.execution),
        });
      }
      if (write.task) {
        parts.push({ role: 'projection', item: taskProjectionItem(tableName, write.task) });
      }
      const outcome = await transactWithRetry(client, parts, retry);
      if (outcome.kind === 'committed') return 'committed';
      // A duplicate wins: its projection already happened.
      if (!outcome.failed.has('inbox')) return 'moved';
      const seen = outcome.failed.get('inbox')?.contentHash;
      return sameInboxContent(seen, write.inbox.contentHash) ? 'duplicate' : 'id_conflict';
    },

    rerun(claim, request) {
      const { task, execution, job, allowedStatuses, expectedCurrentExecutionId } = request;
      return write([
        { role: 'claim', item: claimItem(tableName, claim), decisive: true },
        {
          role: 'task',
          item: rerunTaskItem(
            tableName,
            task,
            allowedStatuses,
            expectedCurrentExecutionId,
            request.expectedRerunCount,
          ),
        },
        ...newExecutionItems(tableName, execution).map((item) => ({
          role: 'other' as const,
          item,
        })),
        { role: 'other', item: outboxItem(tableName, job, task.updatedAt) },
      ]);
    },
  };
}

import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { EXPORT_FORMATS, type ExportFormat } from '../../contract/exports';
import { EXECUTION_ITEM_KIND, OUTBOX_ITEM_KIND } from '../../contract/names';
import type { ExecutionWrite, TaskProjectionWrite } from '../../domain/callbacks/port';
import type { ExportJob, ExportResult } from '../../domain/exports/model';
import {
  EXECUTION_STATUSES,
  type ExecutionRecord,
  type ExecutionStatus,
  isTerminal,
  type TaskRecord,
} from '../../domain/exports/model';
import type { PaidExport } from '../../domain/exports/port';
import { putNew, toAttributes } from '../table/attributes';
import { dueIndexAttributes, LEAVE_DUE_INDEX } from '../table/due-index';
import { keys } from '../table/keys';

export function newTaskItem(tableName: string, task: TaskRecord): TransactWriteItem {
  return putNew(tableName, { ...keys.task(task.id), kind: 'task', ...task });
}

export function newExecutionItems(
  tableName: string,
  execution: ExecutionRecord,
): TransactWriteItem[] {
  return [
    putNew(tableName, {
      ...keys.execution(execution.taskId, execution.id),
      kind: EXECUTION_ITEM_KIND,
      ...execution,
      gaps: [...execution.gaps],
      // Due at its deadline: the sweeper times it out unless it turned terminal first.
      ...(execution.deadline === undefined
        ? {}
        : dueIndexAttributes(execution.id, new Date(execution.deadline))),
    }),
    putNew(tableName, {
      ...keys.executionPointer(execution.id),
      kind: 'execution-pointer',
      taskId: execution.taskId,
    }),
  ];
}

/** The outbox item: written with the task or rerun, delivered by the stream dispatcher. */
export function outboxItem(tableName: string, job: ExportJob, at: string): TransactWriteItem {
  return putNew(tableName, {
    ...keys.outbox(job.executionId),
    kind: OUTBOX_ITEM_KIND,
    job: { ...job },
    createdAt: at,
  });
}

/** What an export's fee pays for, in its transaction: the task, its execution, the job (§5, §8). */
export function paidExportItems(tableName: string, paid: PaidExport): TransactWriteItem[] {
  return [
    newTaskItem(tableName, paid.task),
    ...newExecutionItems(tableName, paid.execution),
    outboxItem(tableName, paid.job, paid.task.createdAt),
  ];
}

/**
 * Makes a new execution current, only from an allowed status, the expected current one and the
 * rerun count that was read (counted with `if_not_exists`: tasks older than the count have none).
 */
export function rerunTaskItem(
  tableName: string,
  task: TaskRecord,
  allowed: readonly ExecutionStatus[],
  expectedCurrent: string,
  expectedReruns: number,
): TransactWriteItem {
  const allowedNames = allowed.map((_, i) => `:allowed${i}`);
  return {
    Update: {
      TableName: tableName,
      Key: toAttributes(keys.task(task.id)),
      UpdateExpression:
        'SET #status = :status, #progress = :progress, #current = :current, #updatedAt = :at, ' +
        '#reruns = if_not_exists(#reruns, :zero) + :one',
      ConditionExpression:
        'attribute_exists(pk) AND #ownerId = :ownerId AND #current = :expected ' +
        `AND #status IN (${allowedNames.join(', ')}) ` +
        (expectedReruns === 0
          ? 'AND (attribute_not_exists(#reruns) OR #reruns = :reruns)'
          : 'AND #reruns = :reruns'),
      ExpressionAttributeNames: {
        '#status': 'status',
        '#progress': 'progress',
        '#current': 'currentExecutionId',
        '#updatedAt': 'updatedAt',
        '#ownerId': 'ownerId',
        '#reruns': 'rerunCount',
      },
      ExpressionAttributeValues: toAttributes({
        ':status': task.status,
        ':progress': task.progress,
        ':current': task.currentExecutionId,
        ':at': task.updatedAt,
        ':ownerId': task.ownerId,
        ':expected': expectedCurrent,
        ':zero': 0,
        ':one': 1,
        ':reruns': expectedReruns,
        ...Object.fromEntries(allowed.map((status, i) => [`:allowed${i}`, status])),
      }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

const asStatus = (value: unknown): ExecutionStatus =>
  EXECUTION_STATUSES.find((s) => s === value) ?? 'CREATED';
const asFormat = (value: unknown): ExportFormat =>
  EXPORT_FORMATS.find((f) => f === value) ?? 'json';

export function toTaskRecord(item: Record<string, unknown>): TaskRecord {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    ownerId: String(item.ownerId),
    format: asFormat(item.format),
    status: asStatus(item.status),
    progress: Number(item.progress ?? 0),
    currentExecutionId: String(item.currentExecutionId),
    ...(typeof item.rerunCount === 'number' ? { rerunCount: item.rerunCount } : {}),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

export function toExecutionRecord(item: Record<string, unknown>): ExecutionRecord {
  return {
    id: String(item.id),
    taskId: String(item.taskId),
    applicationId: String(item.applicationId),
    status: asStatus(item.status),
    progress: Number(item.progress ?? 0),
    lastSequence: Number(item.lastSequence ?? 0),
    gaps: Array.isArray(item.gaps) ? item.gaps.map(Number) : [],
    gapsTruncated: item.gapsTruncated === true,
    version: Number(item.version ?? 1),
    ...(typeof item.deadline === 'string' ? { deadline: item.deadline } : {}),
    ...(isExportResult(item.result) ? { result: item.result } : {}),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

function isExportResult(value: unknown): value is ExportResult {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.key === 'string' &&
    typeof r.rows === 'number' &&
    typeof r.bytes === 'number' &&
    typeof r.sha256 === 'string'
  );
}

/**
 * Advances an execution's projection only from the version that was read. A terminal status
 * takes the execution out of the due index (nothing is left for the sweeper); a result is kept.
 */
export function executionProjectionItem(
  tableName: string,
  write: ExecutionWrite,
): TransactWriteItem {
  const settled = isTerminal(write.status);
  return {
    Update: {
      TableName: tableName,
      Key: toAttributes(keys.execution(write.taskId, write.executionId)),
      UpdateExpression:
        'SET #status = :status, #progress = :progress, #last = :last, #gaps = :gaps, ' +
        '#truncated = :truncated, #version = :next, #updatedAt = :at' +
        (write.result ? ', #result = :result' : '') +
        (settled ? ` ${LEAVE_DUE_INDEX.clause}` : ''),
      ConditionExpression: '#version = :expected',
      ExpressionAttributeNames: {
        '#status': 'status',
        '#progress': 'progress',
        '#last': 'lastSequence',
        '#gaps': 'gaps',
        '#truncated': 'gapsTruncated',
        '#version': 'version',
        '#updatedAt': 'updatedAt',
        ...(write.result ? { '#result': 'result' } : {}),
        ...(settled ? LEAVE_DUE_INDEX.names : {}),
      },
      ExpressionAttributeValues: toAttributes({
        ...(write.result ? { ':result': { ...write.result } } : {}),
        ':status': write.status,
        ':progress': write.progress,
        ':last': write.sequence.lastSequence,
        ':gaps': [...write.sequence.gaps],
        ':truncated': write.sequence.gapsTruncated,
        ':expected': write.expectedVersion,
        ':next': write.expectedVersion + 1,
        ':at': write.at,
      }),
    },
  };
}

/** Mirrors the current execution onto its task; fails once a rerun replaced it. */
export function taskProjectionItem(
  tableName: string,
  write: TaskProjectionWrite,
): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: toAttributes(keys.task(write.taskId)),
      UpdateExpression: 'SET #status = :status, #progress = :progress, #updatedAt = :at',
      ConditionExpression: '#current = :current',
      ExpressionAttributeNames: {
        '#status': 'status',
        '#progress': 'progress',
        '#updatedAt': 'updatedAt',
        '#current': 'currentExecutionId',
      },
      ExpressionAttributeValues: toAttributes({
        ':status': write.status,
        ':progress': write.progress,
        ':at': write.at,
        ':current': write.currentExecutionId,
      }),
    },
  };
}

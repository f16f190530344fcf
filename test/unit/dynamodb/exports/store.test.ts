import {
  DynamoDBClient,
  QueryCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { newExecution, type TaskRecord } from '../../../../functions/domain/exports/model';
import type { IdempotencyClaim } from '../../../../functions/domain/idempotency/port';
import { exportOnce } from '../../../../functions/domain/movements/once';
import { createTaskStore } from '../../../../functions/dynamodb/exports/store';
import { createMovementStore } from '../../../../functions/dynamodb/movements/store';
import { mockedStoreOptions } from '../../../support/sdk/mocked-store';

const ddb = mockClient(DynamoDBClient);
const options = mockedStoreOptions();
const store = createTaskStore(options);
/** An export's fee is a debit: the movement store writes it with the export (§23). */
const movements = createMovementStore(options);
const at = '2026-11-29T10:00:00.000Z';
const task: TaskRecord = {
  id: 't1',
  accountId: 'a1',
  ownerId: 'alice',
  format: 'csv',
  status: 'CREATED',
  progress: 0,
  currentExecutionId: 'e1',
  createdAt: at,
  updatedAt: at,
};
const execution = newExecution('e1', 't1', 'export-worker', new Date(at), 900);
const claim: IdempotencyClaim = {
  scopeId: 's',
  fingerprint: 'f',
  expiresAt: 2,
  nowSeconds: 1,
  response: { statusCode: 202, body: '{}' },
};
const paid = {
  task,
  execution,
  job: {
    taskId: 't1',
    executionId: 'e1',
    accountId: 'a1',
    format: 'csv' as const,
    callbackPath: '/v1/callbacks/x',
  },
};
/** The fee's posting: a debit of the account, under the guard a fee draws. */
const fee = {
  entry: {
    id: 'f1',
    accountId: 'a1',
    type: 'debit' as const,
    amount: 100,
    currency: 'EUR',
    origin: 'http' as const,
    createdAt: at,
    effectiveAt: at,
  },
  guard: { ownerId: task.ownerId, currency: 'EUR', requireAvailableAtLeast: 100 },
};
const cancel = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

beforeEach(() => ddb.reset());

describe('task store', () => {
  it('follows every page of a task partition (the task item sorts last)', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({
        Items: [marshall({ kind: 'execution', ...execution, gaps: [] })],
        LastEvaluatedKey: marshall({ pk: 'TASK#t1', sk: 'EXECUTION#e1' }),
      })
      .resolvesOnce({ Items: [marshall({ kind: 'task', ...task })] });
    const state = await store.getTask('t1');
    expect(state?.task.id).toBe('t1');
    expect(state?.executions.map((e) => e.id)).toEqual(['e1']);
    expect(ddb.commandCalls(QueryCommand)[1]?.args[0].input.ExclusiveStartKey).toBeDefined();
  });

  it('writes the export as one transaction: claim, fee, entry and its pointer, task, execution, pointer, outbox', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(movements.post(exportOnce(claim, paid), fee)).resolves.toEqual({
      kind: 'committed',
    });
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((i) => i.Put?.Item?.kind?.S ?? (i.Update ? 'update' : undefined))).toEqual([
      undefined, // the claim carries no kind
      'update',
      'entry',
      'entry-pointer',
      'task',
      'execution',
      'execution-pointer',
      'outbox',
    ]);
  });

  it.each([
    ['the claim stays contended', cancel('TransactionConflict', 'None'), 'idempotency_key_in_use'],
    ['the account stays contended', cancel('None', 'TransactionConflict'), 'unavailable'],
    ['items are throttled', cancel('None', 'ThrottlingError'), 'unavailable'],
  ])('answers %s with %s', async (_name, error, code) => {
    ddb.on(TransactWriteItemsCommand).rejects(error);
    await expect(movements.post(exportOnce(claim, paid), fee)).rejects.toMatchObject({ code });
  });

  it('reports a rerun whose task moved since it was read', async () => {
    ddb.on(TransactWriteItemsCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [
          { Code: 'None' },
          {
            Code: 'ConditionalCheckFailed',
            Item: marshall({ kind: 'task', ...task, status: 'RUNNING' }),
          },
        ],
      }),
    );
    const result = await store.rerun(claim, {
      task,
      execution,
      job: paid.job,
      allowedStatuses: ['SUCCEEDED'],
      expectedCurrentExecutionId: 'e0',
      expectedRerunCount: 0,
    });
    expect(result).toMatchObject({ kind: 'task_rejected', task: { status: 'RUNNING' } });
  });

  it('calls a callback whose projection moved "moved", and one whose inbox exists "duplicate"', async () => {
    const write = {
      inbox: { namespace: 'callback', source: 'app', id: 'c1', nowSeconds: 1, expiresAt: 2 },
      execution: {
        taskId: 't1',
        executionId: 'e1',
        expectedVersion: 1,
        status: 'RUNNING' as const,
        progress: 5,
        sequence: { lastSequence: 1, gaps: [], gapsTruncated: false },
        at,
      },
    };
    ddb
      .on(TransactWriteItemsCommand)
      .rejectsOnce(cancel('None', 'ConditionalCheckFailed'))
      .rejectsOnce(cancel('ConditionalCheckFailed', 'TransactionConflict'));
    await expect(store.applyCallback(write)).resolves.toBe('moved');
    await expect(store.applyCallback(write)).resolves.toBe('duplicate');
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(2);
  });
});

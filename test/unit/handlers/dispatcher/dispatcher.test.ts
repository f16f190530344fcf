import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type { ExportJob } from '../../../../functions/domain/exports/model';
import { createOutboxDispatcher } from '../../../../functions/handlers/dispatcher/dispatcher';
import { exportJob } from '../../../support/exports/export-job';
import { fakeExportJobQueue, fakeOutboxMarks } from '../../../support/fakes/exports';
import { recordingMetrics } from '../../../support/fakes/metrics';
import { quietRuntime } from '../../../support/runtime';

const job = () => exportJob();

function streamRecord(
  item: Record<string, unknown>,
  sequence: string,
  eventName: 'INSERT' | 'MODIFY' = 'INSERT',
): DynamoDBRecord {
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: sequence,
      // Stream images use the same wire shape as the SDK's AttributeValue.
      NewImage: marshall(item) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
    },
  };
}

const outboxItem = (j: ExportJob) => ({
  pk: `OUTBOX#${j.executionId}`,
  sk: 'OUTBOX',
  kind: 'outbox',
  job: j,
});

function harness(failSends = 0) {
  const sent: ExportJob[] = [];
  let failures = failSends;
  const marks: string[] = [];
  const dispatch = createOutboxDispatcher({
    ...quietRuntime(),
    creditIntake: { notify: async () => [] },
    intakeDue: { mark: async () => undefined },
    strandedAfterSeconds: 60,
    jobs: fakeExportJobQueue({
      send: async (j) => {
        if (failures-- > 0) throw new Error('crash between commit and send');
        sent.push(j);
      },
    }),
    outbox: fakeOutboxMarks({
      markDispatched: async (executionId) => void marks.push(executionId),
    }),
  });
  return { dispatch, sent, marks };
}

describe('outbox dispatcher', () => {
  it('sends new outbox items and marks them, ignoring other items and modifications', async () => {
    const a = job();
    const { dispatch, sent, marks } = harness();
    const event: DynamoDBStreamEvent = {
      Records: [
        streamRecord({ pk: 'ACCOUNT#1', sk: 'ACCOUNT', kind: 'account' }, '1'),
        streamRecord(outboxItem(a), '2'),
        streamRecord({ ...outboxItem(a), dispatchedAt: 'x' }, '3', 'MODIFY'),
      ],
    };
    expect(await dispatch(event)).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([a]);
    expect(marks).toEqual([a.executionId]);
  });

  it('treats only export-job outbox items as jobs: gap re-fetch requests pass (docs/contract.md §18)', async () => {
    const a = job();
    const { dispatch, sent } = harness();
    const request = {
      pk: 'GAPREQ#ab',
      sk: 'GAPREQ',
      kind: 'gap-request',
      requestId: 'ab',
      event: '{"type":"ledger.gap.refetch.v1"}',
    };
    const event: DynamoDBStreamEvent = {
      Records: [
        streamRecord(request, '1'),
        streamRecord({ ...request, publishedAt: 'x' }, '2', 'MODIFY'),
        streamRecord(outboxItem(a), '3'),
      ],
    };
    expect(await dispatch(event)).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([a]);
  });

  it('counts dispatches and failures', async () => {
    const metrics = recordingMetrics();
    const dispatch = createOutboxDispatcher({
      ...quietRuntime(),
      creditIntake: { notify: async () => [] },
      intakeDue: { mark: async () => undefined },
      strandedAfterSeconds: 60,
      jobs: fakeExportJobQueue({
        send: vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(undefined),
      }),
      outbox: fakeOutboxMarks(),
      metrics,
    });
    const event = { Records: [streamRecord(outboxItem(job()), '30')] };
    await dispatch(event);
    await dispatch(event);
    expect(metrics.counts.get('ExportJobDispatchFailure')).toBe(1);
    expect(metrics.counts.get('ExportJobDispatched')).toBe(1);
  });

  it('reports the failed record so the stream retries from it, and delivers on the retry', async () => {
    const [a, b, c] = [job(), job(), job()];
    const { dispatch, sent } = harness(1);
    const records = [
      streamRecord(outboxItem(a), '10'),
      streamRecord(outboxItem(b), '11'),
      streamRecord(outboxItem(c), '12'),
    ];
    sent.length = 0;
    // First send of `a` crashes: nothing after it is sent out of order.
    expect(await dispatch({ Records: records })).toEqual({
      batchItemFailures: [{ itemIdentifier: '10' }],
    });
    expect(sent).toEqual([]);
    // Lambda retries the batch from the failed record.
    expect(await dispatch({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(sent.map((j) => j.executionId)).toEqual([a, b, c].map((j) => j.executionId));
  });

  it('resends with the same executionId when the mark fails after the send', async () => {
    const a = job();
    const sent: ExportJob[] = [];
    let markFails = 1;
    const dispatch = createOutboxDispatcher({
      ...quietRuntime(),
      creditIntake: { notify: async () => [] },
      intakeDue: { mark: async () => undefined },
      strandedAfterSeconds: 60,
      jobs: fakeExportJobQueue({ send: async (j) => void sent.push(j) }),
      outbox: fakeOutboxMarks({
        markDispatched: async () => {
          if (markFails-- > 0) throw new Error('throttled');
        },
      }),
    });
    const event = { Records: [streamRecord(outboxItem(a), '20')] };
    expect((await dispatch(event)).batchItemFailures).toHaveLength(1);
    expect((await dispatch(event)).batchItemFailures).toHaveLength(0);
    expect(sent.map((j) => j.executionId)).toEqual([a.executionId, a.executionId]);
  });
});

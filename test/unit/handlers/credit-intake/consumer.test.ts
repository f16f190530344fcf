import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { PostingRefusedError } from '../../../../functions/domain/intake/posting';
import { METRICS } from '../../../../functions/domain/shared/metrics';
import { createCreditIntakeConsumer } from '../../../../functions/handlers/credit-intake/consumer';
import { recordingMetrics } from '../../../support/fakes/metrics';
import { quietRuntime } from '../../../support/runtime';

/** docs/contract.md §24: the folder's SQS consumer — one run per account, partial failures. */
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';
const now = new Date('2026-12-01T10:00:10.000Z');

const message = (id: string, body: string) => ({ messageId: id, body }) as SQSRecord;

function harness(
  runs: Record<string, () => Promise<unknown>>,
  markers = new Map<string, number>(),
) {
  const calls: string[] = [];
  const requeued: string[] = [];
  const metrics = recordingMetrics();
  const consume = createCreditIntakeConsumer({
    ...quietRuntime(),
    clock: () => now,
    metrics,
    folder: {
      postAll: async (accountId) => {
        calls.push(accountId);
        return (await runs[accountId]?.()) as never;
      },
    },
    queue: {
      notify: async (ids) => {
        requeued.push(...ids);
        return [];
      },
    },
    intakeDue: {
      marks: async (accountId) => markers.get(accountId),
      clear: async (accountId, marks) => {
        if (markers.get(accountId) === marks) markers.delete(accountId);
      },
    },
  });
  return { consume, calls, requeued, metrics, markers };
}

describe('the credit-intake consumer (docs/contract.md §24)', () => {
  it('runs the folder once per account, fails only the records of a failed account', async () => {
    const { consume, calls, metrics } = harness({
      [A]: async () => ({
        posted: 3,
        finished: true,
        oldestAcceptedAt: '2026-12-01T10:00:04.000Z',
      }),
      [B]: async () => {
        throw new PostingRefusedError('balance_limit_exceeded', 'cap', B);
      },
      [C]: async () => ({
        posted: 1,
        setAside: 2,
        finished: true,
        oldestAcceptedAt: '2026-12-01T10:00:07.000Z',
      }),
    });
    const response = await consume({
      Records: [
        message('m1', JSON.stringify({ accountId: A })),
        message('m2', JSON.stringify({ accountId: B })),
        message('m3', JSON.stringify({ accountId: A })),
        message('m4', JSON.stringify({ accountId: C })),
        message('m5', 'not json'),
      ],
    });
    expect(calls.sort()).toEqual([A, B, C].sort());
    expect(response.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m2', 'm5']);
    expect(metrics.readings.get(METRICS.creditIntakeLag)).toEqual([6]);
    expect(metrics.counts.get(METRICS.creditsPosted)).toBe(4);
    // Credits set aside (§36) are counted, never a failed record.
    expect(metrics.counts.get(METRICS.setAsideCredits)).toBe(2);
  });

  it('queues an account again when the deadline cut its run short, and acknowledges', async () => {
    const { consume, requeued } = harness({
      [A]: async () => ({ posted: 30, finished: false }),
    });
    const response = await consume({ Records: [message('m1', JSON.stringify({ accountId: A }))] });
    expect(response.batchItemFailures).toEqual([]);
    expect(requeued).toEqual([A]);
  });

  it("deletes a drained account's INTAKE_DUE marker, unless marked again during the run (§36)", async () => {
    const markers = new Map([
      [A, 2],
      [B, 1],
      [C, 4],
    ]);
    const { consume } = harness(
      {
        [A]: async () => ({ posted: 2, finished: true }),
        // A credit accepted and marked while B's run posted: the marker stays for the sweep.
        [B]: async () => {
          markers.set(B, 2);
          return { posted: 1, finished: true };
        },
        [C]: async () => ({ posted: 30, finished: false }),
      },
      markers,
    );
    await consume({
      Records: [A, B, C].map((id, i) => message(`m${i}`, JSON.stringify({ accountId: id }))),
    });
    expect([...markers]).toEqual([
      [B, 2],
      [C, 4],
    ]);
  });
});

import { App, Duration, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EXPORT_JOBS_MAX_RECEIVE_COUNT,
  EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS,
  EXPORT_WORKER_TIMEOUT_SECONDS,
  exportRetryProblems,
  exportRetryTiming,
} from '../../../functions/contract/exports';
import { ExportJobQueues } from '../../../lib/constructs/exports/export-job-queues';
import {
  ExportWorker,
  type ExportWorkerProps,
} from '../../../lib/constructs/exports/export-worker';
import {
  logicalIdOf,
  propertiesOf,
  propertiesOfId,
  SYNTH_HOOK_TIMEOUT_MS,
  type SynthesizedLedger,
  stubHandlerCode,
  synthLedger,
} from '../synth';

/**
 * Export retries before the deadline (docs/contract.md §12): a job failing on every receive
 * reports FAILED and reaches export-jobs-dlq before its execution's deadline. Synth enforces
 * visibility ≥ worker timeout + 30 s and maxReceiveCount × visibility < deadline; each branch
 * that refuses a configuration has a test here, and the shipped numbers are pinned.
 */

let ledger: SynthesizedLedger;
beforeAll(() => {
  ledger = synthLedger();
}, SYNTH_HOOK_TIMEOUT_MS);

describe('the shipped numbers (worker 120 s, visibility 150 s, 5 receives, deadline 900 s)', () => {
  const exportJobs = () => {
    const queues = Object.values(propertiesOf(ledger.stateful, 'AWS::SQS::Queue'));
    const queue = queues.find((q) => String(q.QueueName).endsWith('-export-jobs'));
    if (!queue) throw new Error('no export-jobs queue');
    return queue;
  };
  const worker = () =>
    propertiesOfId(
      ledger.stateless,
      'AWS::Lambda::Function',
      logicalIdOf(ledger.stacks.stateless.exportWorker.function),
    );

  it('deploys them: the worker timeout, the queue visibility and its redrive count', () => {
    expect(worker().Timeout).toBe(120);
    expect(exportJobs().VisibilityTimeout).toBe(150);
    expect(exportJobs().RedrivePolicy).toMatchObject({ maxReceiveCount: 5 });
    const vars = (worker().Environment as { Variables: Record<string, string> }).Variables;
    expect(vars.EXPORT_EXECUTION_TIMEOUT_SECONDS).toBe('900');
    expect([
      EXPORT_WORKER_TIMEOUT_SECONDS,
      EXPORT_JOBS_VISIBILITY_TIMEOUT_SECONDS,
      EXPORT_JOBS_MAX_RECEIVE_COUNT,
    ]).toEqual([120, 150, 5]);
  });

  it('fits: 150 s ≥ 120 s + 30 s, and 5 × 150 s + 60 s = 810 s < 900 s (FAILED at ≤ 4 × 150 + 120 = 720 s)', () => {
    const visibility = Number(exportJobs().VisibilityTimeout);
    const receives = Number(
      (exportJobs().RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount,
    );
    const timeout = Number(worker().Timeout);
    expect(visibility).toBeGreaterThanOrEqual(timeout + 30);
    expect(receives * visibility + 60).toBeLessThan(900);
    expect((receives - 1) * visibility + timeout).toBeLessThan(900);
    expect(exportRetryProblems(exportRetryTiming(900))).toEqual([]);
  });
});

describe('synth refuses a configuration whose retries cannot fit', () => {
  it('refuses exportExecutionTimeoutSeconds up to 810 s (5 receives × 150 s + 60 s), accepts 811 s', () => {
    expect(() => synthLedger({ exportExecutionTimeoutSeconds: '810' })).toThrow(
      /exportExecutionTimeoutSeconds must be an integer from 811 to 86400 \(more than 5 receives × the export-jobs visibility timeout of 150 s \+ a 60 s margin = 810 s/,
    );
    const shortest = synthLedger({ exportExecutionTimeoutSeconds: '811' });
    shortest.stateless.hasResourceProperties('AWS::Lambda::Function', {
      Timeout: 120,
      Environment: { Variables: { EXPORT_EXECUTION_TIMEOUT_SECONDS: '811' } },
    });
  });

  it('refuses an export-jobs visibility timeout below the worker timeout + 30 s', () => {
    const stack = new Stack(new App(), 'Queues');
    expect(
      () => new ExportJobQueues(stack, 'ExportJobs', { visibilityTimeout: Duration.seconds(149) }),
    ).toThrow(
      "the export-jobs visibility timeout (149 s) must be at least the export worker's timeout (120 s) + 30 s = 150 s",
    );
  });

  describe('the worker checks itself against the queue it consumes and the deadline', () => {
    function workerStack(overrides: Partial<ExportWorkerProps> & { visibility?: number } = {}) {
      const stack = new Stack(new App(), 'Worker');
      const jobs = new ExportJobQueues(stack, 'ExportJobs', {
        visibilityTimeout: Duration.seconds(overrides.visibility ?? 150),
      });
      return () =>
        new ExportWorker(stack, 'ExportWorker', {
          functionDefaults: { code: stubHandlerCode() },
          table: new dynamodb.Table(stack, 'Table', {
            partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
          }),
          jobs,
          bucket: s3.Bucket.fromBucketName(stack, 'Bucket', 'exports-bucket'),
          callbackSecret: new secretsmanager.Secret(stack, 'Secret'),
          apiUrl: 'https://api.example',
          environment: {},
          executionTimeoutSeconds: 900,
          exportObjectsReason: 'test',
          ...overrides,
        });
    }

    it('builds with the shipped numbers', () => {
      expect(workerStack()).not.toThrow();
    });

    it('refuses a worker timeout the queue does not hide a job 30 s longer than', () => {
      expect(workerStack({ timeout: Duration.seconds(130) })).toThrow(
        "export-jobs retries do not fit the deadline: the export-jobs visibility timeout (150 s) must be at least the export worker's timeout (130 s) + 30 s = 160 s",
      );
    });

    it('refuses a deadline the 5 receives and the 60 s margin do not fit in, naming the numbers', () => {
      expect(workerStack({ executionTimeoutSeconds: 810 })).toThrow(
        'export-jobs retries do not fit the deadline: 5 receives × the export-jobs visibility timeout (150 s) + a 60 s margin (dispatch delay, backlog) = 810 s must be less than the execution deadline (810 s)',
      );
      expect(workerStack({ executionTimeoutSeconds: 811 })).not.toThrow();
    });

    it('refuses a longer visibility timeout that pushes the DLQ past the deadline', () => {
      expect(workerStack({ visibility: 200 })).toThrow(
        /5 receives × the export-jobs visibility timeout \(200 s\) \+ a 60 s margin \(dispatch delay, backlog\) = 1060 s must be less than the execution deadline \(900 s\)/,
      );
    });
  });
});

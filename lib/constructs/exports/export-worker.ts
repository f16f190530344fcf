import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import {
  EXPORT_KEY_PREFIX,
  EXPORT_WORKER_TIMEOUT_SECONDS,
  exportRetryProblems,
} from '../../../functions/contract/exports';
import {
  handlerEntry,
  LedgerFunction,
  type LedgerFunctionDefaults,
} from '../shared/ledger-function';
import type { QueueWithDeadLetterRef } from '../shared/queue-with-dead-letter';

/**
 * DynamoDB actions of the worker: `UpdateItem` for the run lease on the execution, `Query` for
 * the account's entries. It writes nothing else: progress goes through signed callbacks.
 */
const WORKER_TABLE_ACTIONS = ['dynamodb:UpdateItem', 'dynamodb:Query'] as const;

/**
 * S3 actions on `exports/*` only: `PutObject` authorises PutObject and every multipart step
 * (Create, UploadPart, Complete); `AbortMultipartUpload` lets a failed run leave no parts;
 * `DeleteObject` removes the object of a run whose execution timed out before SUCCEEDED landed.
 */
const WORKER_OBJECT_ACTIONS = [
  's3:PutObject',
  's3:AbortMultipartUpload',
  's3:DeleteObject',
] as const;

/** Export workers running at once by default: each holds one export in memory at a time. */
const DEFAULT_EXPORT_WORKER_CONCURRENCY = 5;

export interface ExportWorkerProps {
  readonly functionDefaults?: LedgerFunctionDefaults;
  readonly table: dynamodb.ITable;
  /** `export-jobs` (the worker's event source) with its visibility timeout and redrive count. */
  readonly jobs: QueueWithDeadLetterRef;
  readonly bucket: s3.IBucket;
  /** The callback secret: the worker signs with the export application's secret. */
  readonly callbackSecret: secretsmanager.ISecret;
  /** Base URL of the HTTP API (`API_URL`), where the signed callbacks go. */
  readonly apiUrl: string;
  /** What `loadConfig` reads in every handler (TABLE_NAME, the export settings, …). */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * The execution deadline: a job failing on every receive must report FAILED and reach the DLQ
   * before it (`exportRetryProblems`, docs/contract.md §12), or the synth fails.
   */
  readonly executionTimeoutSeconds: number;
  /** @default EXPORT_WORKER_TIMEOUT_SECONDS (120 s) */
  readonly timeout?: Duration;
  /** Why the role names `exports/*` (the cdk-nag IAM5 acknowledgement). */
  readonly exportObjectsReason: string;
  /** @default DEFAULT_EXPORT_WORKER_CONCURRENCY (5) */
  readonly maxConcurrency?: number;
}

/**
 * The export worker (`functions/handlers/export-worker/handler.ts`, docs/contract.md §12): one job per
 * invocation from `export-jobs` with partial batch responses, least privilege on the table,
 * the bucket's `exports/` prefix, the queue and the callback secret.
 */
export class ExportWorker extends Construct {
  readonly function: LedgerFunction;
  readonly eventSource: SqsEventSource;

  constructor(scope: Construct, id: string, props: ExportWorkerProps) {
    super(scope, id);
    const timeout = props.timeout ?? Duration.seconds(EXPORT_WORKER_TIMEOUT_SECONDS);
    // Retries before the deadline: visibility ≥ timeout + 30 s, receives × visibility < deadline.
    const problems = exportRetryProblems({
      workerTimeoutSeconds: timeout.toSeconds(),
      visibilityTimeoutSeconds: props.jobs.visibilityTimeout.toSeconds(),
      maxReceiveCount: props.jobs.maxReceiveCount,
      deadlineSeconds: props.executionTimeoutSeconds,
    });
    if (problems.length > 0) {
      throw new Error(`export-jobs retries do not fit the deadline: ${problems.join('; ')}`);
    }
    this.function = new LedgerFunction(this, 'Function', {
      ...props.functionDefaults,
      entry: handlerEntry('export-worker'),
      description: 'idempotent-ledger export worker (export-jobs -> S3, signed callbacks)',
      timeout,
      memorySize: 1024,
      environment: {
        ...props.environment,
        API_URL: props.apiUrl,
        CALLBACK_SECRETS_ARN: props.callbackSecret.secretArn,
      },
    });

    // Consume actions on export-jobs only; one job per invocation, so a batch never holds two
    // exports and a failure redelivers exactly that job.
    this.eventSource = new SqsEventSource(props.jobs.queue, {
      batchSize: 1,
      maxConcurrency: props.maxConcurrency ?? DEFAULT_EXPORT_WORKER_CONCURRENCY,
      reportBatchItemFailures: true,
    });
    this.function.addEventSource(this.eventSource);

    this.function.allow('LedgerTableExportReads', WORKER_TABLE_ACTIONS, [props.table.tableArn]);
    const objects = props.bucket.arnForObjects(`${EXPORT_KEY_PREFIX}*`);
    this.function.allow('ExportObjectsWrite', WORKER_OBJECT_ACTIONS, [objects]);
    this.function.acknowledgeWildcardResource(objects, props.exportObjectsReason);
    this.function.allow(
      'CallbackSecretRead',
      ['secretsmanager:GetSecretValue'],
      [props.callbackSecret.secretArn],
    );
  }
}

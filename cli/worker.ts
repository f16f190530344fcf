import { randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { LedgerClient } from '../client';
import { applicationIdOf, type ExportJob, parseExportJob } from '../functions/contract/export-job';
import { sleep } from '../functions/core/retry';
import { describeError } from '../functions/observability/log';
import {
  type CallbackResponse,
  type CallbackSigner,
  callbackEvent,
  postCallback,
} from './callbacks';
import { ledgerClient } from './client';
import { CliError } from './errors';

/**
 * The demo export worker (contract §8): consumes `export-jobs`, skips an `executionId` it has
 * already finished (delivery is at least once), and reports each job through signed callbacks
 * to the job's `callbackPath`: RUNNING 0 (sequence 1), RUNNING 50 (2), SUCCEEDED 100 (3). The
 * message is deleted only after the last callback was accepted; a job that could not be
 * reported stays on the queue and comes back after its visibility timeout.
 */

/** What the worker reports for every job, in order; sequence = index + 1. */
export const WORKER_STEPS = [
  { status: 'RUNNING', progress: 0 },
  { status: 'RUNNING', progress: 50 },
  { status: 'SUCCEEDED', progress: 100 },
] as const;

export type JobResult =
  | { readonly kind: 'done'; readonly job: ExportJob }
  | { readonly kind: 'duplicate'; readonly job: ExportJob }
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string; readonly job?: ExportJob };

export interface WorkerOptions {
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly apiUrl: string;
  readonly fetch: typeof fetch;
  /** How to sign for an application (docs/contract.md §7); throws when it has no key. */
  readonly signerFor: (applicationId: string) => CallbackSigner;
  /** Only take jobs addressed to this application; others are left on the queue. */
  readonly app?: string;
  /** Stop once no job has come for `idleMs`. */
  readonly once?: boolean;
  /** @default 3000 */
  readonly idleMs?: number;
  /** Pause before each callback after the first. @default 300 */
  readonly stepDelayMs?: number;
  /** How long a received job stays hidden from other consumers. @default 30 */
  readonly visibilityTimeoutSeconds?: number;
  /** Long-poll wait per receive. @default 1 */
  readonly waitTimeSeconds?: number;
  readonly signal?: AbortSignal;
  readonly log?: (line: string) => void;
  /** Called after each message (for the demo command). */
  readonly onResult?: (result: JobResult) => void;
  readonly newId?: () => string;
}

export interface WorkerSummary {
  done: number;
  duplicates: number;
  skipped: number;
  failed: number;
}

/** How often a callback is tried when the API is unreachable or answers 5xx/429. */
const CALLBACK_ATTEMPTS = 3;

class DemoWorker {
  /** executionIds reported to the end; a second delivery of one is deleted unreported. */
  private readonly finished = new Set<string>();
  private readonly log: (line: string) => void;
  private readonly client: LedgerClient;

  constructor(private readonly options: WorkerOptions) {
    this.log = options.log ?? (() => {});
    this.client = ledgerClient(options.apiUrl, options.fetch);
  }

  /** Receives until stopped (or, with `once`, until idle), handling each job. */
  async run(): Promise<WorkerSummary> {
    const { options } = this;
    const summary: WorkerSummary = { done: 0, duplicates: 0, skipped: 0, failed: 0 };
    const idleMs = options.idleMs ?? 3_000;
    let lastJobAt = Date.now();
    while (!options.signal?.aborted) {
      let messages: Message[];
      try {
        messages = await this.receive();
      } catch (error) {
        if (options.signal?.aborted) break;
        throw new CliError(`cannot receive from ${options.queueUrl}: ${describeError(error)}`);
      }
      for (const message of messages) {
        if (options.signal?.aborted) break;
        const result = await this.handle(message);
        if (result.kind === 'done') summary.done++;
        else if (result.kind === 'duplicate') summary.duplicates++;
        else if (result.kind === 'skipped') summary.skipped++;
        else summary.failed++;
        if (result.kind === 'done' || result.kind === 'duplicate') lastJobAt = Date.now();
        options.onResult?.(result);
      }
      if (options.once && Date.now() - lastJobAt >= idleMs) break;
    }
    return summary;
  }

  private async receive(): Promise<Message[]> {
    const { options } = this;
    const { Messages = [] } = await options.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: options.queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: options.waitTimeSeconds ?? 1,
        VisibilityTimeout: options.visibilityTimeoutSeconds ?? 30,
        MessageSystemAttributeNames: ['ApproximateReceiveCount'],
      }),
      options.signal ? { abortSignal: options.signal } : {},
    );
    return Messages;
  }

  /** One message: parse, dedup, report, delete. Never throws (except when stopped). */
  async handle(message: Message): Promise<JobResult> {
    const parsed = parseExportJob(message.Body);
    if (!parsed.ok) {
      const { reason } = parsed;
      this.log(`message ${message.MessageId}: not an export job (${reason}); left on the queue`);
      return { kind: 'failed', reason };
    }
    const { job } = parsed;
    const app = applicationIdOf(job.callbackPath);
    const label = `task ${job.taskId} execution ${job.executionId}`;
    if (this.options.app !== undefined && app !== this.options.app) {
      const reason = `addressed to application "${app}", this worker is "${this.options.app}"`;
      this.log(`${label}: ${reason}; left on the queue`);
      return { kind: 'skipped', reason };
    }
    if (this.finished.has(job.executionId)) {
      this.log(`${label}: already done (duplicate delivery); deleted`);
      await this.delete(message);
      return { kind: 'duplicate', job };
    }

    let signer: CallbackSigner;
    try {
      signer = this.options.signerFor(app);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log(`${label}: ${reason}; left on the queue`);
      return { kind: 'failed', reason, job };
    }

    this.log(`${label}: ${job.format} export of account ${job.accountId} -> ${job.callbackPath}`);
    for (const [index, step] of WORKER_STEPS.entries()) {
      if (index > 0) await sleep(this.options.stepDelayMs ?? 300, this.options.signal);
      if (this.options.signal?.aborted) return this.stopped(message, label, job);
      const sequence = index + 1;
      const event = callbackEvent({
        id: (this.options.newId ?? randomUUID)(),
        applicationId: app,
        executionId: job.executionId,
        taskId: job.taskId,
        sequence,
        status: step.status,
        progress: step.progress,
      });
      const response = await this.post(app, event, signer);
      const what = `seq ${sequence} ${step.status} ${step.progress}%`;
      if (this.options.signal?.aborted) return this.stopped(message, label, job);
      if (typeof response === 'string' || response.status !== 200) {
        const reason =
          typeof response === 'string'
            ? response
            : `HTTP ${response.status} ${response.text.slice(0, 300)}`;
        this.log(`${label}: ${what} failed: ${reason}; left on the queue`);
        return { kind: 'failed', reason, job };
      }
      this.log(`${label}: ${what} -> ${response.outcome ?? response.text}`);
    }
    this.finished.add(job.executionId);
    await this.delete(message);
    return { kind: 'done', job };
  }

  /** One callback, retried on network errors, 429 and 5xx; a string when it never got a 2xx/4xx. */
  private async post(
    applicationId: string,
    event: ReturnType<typeof callbackEvent>,
    signer: CallbackSigner,
  ): Promise<CallbackResponse | string> {
    let last = '';
    for (let attempt = 1; attempt <= CALLBACK_ATTEMPTS; attempt++) {
      try {
        const response = await postCallback({
          client: this.client,
          apiUrl: this.options.apiUrl,
          applicationId,
          event,
          signer,
          ...(this.options.signal ? { signal: this.options.signal } : {}),
        });
        if (response.status !== 429 && response.status < 500) return response;
        last = `HTTP ${response.status} ${response.text.slice(0, 300)}`;
      } catch (error) {
        if (this.options.signal?.aborted) return 'stopped';
        last = error instanceof Error ? error.message : String(error);
      }
      if (attempt < CALLBACK_ATTEMPTS) await sleep(500 * attempt, this.options.signal);
    }
    return last;
  }

  private async delete(message: Message): Promise<void> {
    try {
      // Not tied to the signal: a reported job is acknowledged even while stopping.
      await this.options.sqs.send(
        new DeleteMessageCommand({
          QueueUrl: this.options.queueUrl,
          ReceiptHandle: message.ReceiptHandle,
        }),
      );
    } catch (error) {
      this.log(`could not delete message ${message.MessageId}: ${describeError(error)}`);
    }
  }

  /** Stopped mid-job: the message becomes visible again at once for the next worker. */
  private async stopped(message: Message, label: string, job: ExportJob): Promise<JobResult> {
    try {
      await this.options.sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: this.options.queueUrl,
          ReceiptHandle: message.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
    } catch {
      // it comes back after its visibility timeout anyway
    }
    this.log(`${label}: stopped before it finished; back on the queue`);
    return { kind: 'failed', reason: 'stopped', job };
  }
}

export function runWorker(options: WorkerOptions): Promise<WorkerSummary> {
  return new DemoWorker(options).run();
}

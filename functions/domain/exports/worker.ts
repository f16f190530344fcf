import { EXPORT_CONTENT_TYPES, exportObjectKey } from '../../contract/exports';
import { readEntry } from '../accounts/model';
import { errorFields, type Log } from '../shared/log';
import { encoderFor } from './encode';
import { MeasuredWriter } from './measured-writer';
import type { ExportJob, ExportResult } from './model';
import type { ExecutionReporter, ExportRunPort, ObjectSink, RunClaim } from './port';

export interface ExportWorkerDeps {
  readonly runs: ExportRunPort;
  readonly objects: ObjectSink;
  readonly reporter: ExecutionReporter;
  readonly clock: () => Date;
  /** Least time between two RUNNING progress callbacks. @default 2000 */
  readonly progressIntervalMs?: number;
  /** Encoded bytes gathered before each write to the object. @default 64 KiB */
  readonly chunkBytes?: number;
  readonly log: Log;
}

export interface RunOptions {
  /** How long this run may hold the execution (at most what is left of the invocation). */
  readonly leaseMs: number;
  /**
   * The run's own timer (docs/contract.md §12): writing stops this long after the start, before
   * the invocation ends, so that a final attempt still reports FAILED. Less than `leaseMs`.
   */
  readonly giveUpMs: number;
  /** No redelivery follows a failure of this attempt: report FAILED before giving up. */
  readonly finalAttempt: boolean;
}

/** The run's own timer fired before the object was complete; the upload was dropped. */
export class RunOutOfTimeError extends Error {
  constructor(readonly afterMs: number) {
    super(`the export run gave up after ${afterMs} ms (its own timer, before the invocation ends)`);
    this.name = 'RunOutOfTimeError';
  }
}

export type ExportOutcome =
  | { readonly kind: 'succeeded'; readonly result: ExportResult; readonly outcome: string }
  /**
   * The API answered `stale` (docs/contract.md §12): the execution timed out while this run
   * worked. After `RUNNING` the upload was dropped; after `SUCCEEDED` the complete object was
   * deleted (`objectDeleted: false` when that failed and the bucket's lifecycle rule must).
   */
  | {
      readonly kind: 'timed_out';
      readonly reported: 'RUNNING' | 'SUCCEEDED';
      readonly key: string;
      readonly objectDeleted: boolean;
    }
  | { readonly kind: 'skipped'; readonly reason: Exclude<RunClaim, { kind: 'claimed' }>['kind'] };

/** A `RUNNING` callback was answered `stale`: stop writing, the execution timed out. */
class StaleWhileRunning extends Error {}

/**
 * Runs one export job (docs/contract.md §12): claims the execution (duplicates of the job and
 * overdue jobs stop here), streams the account's entries up to the snapshot into one object,
 * then reports SUCCEEDED with `{ key, rows, bytes, sha256 }`. Callbacks continue the
 * execution's sequence, so a second attempt after a crash is never taken for a stale replay.
 */
export class ExportWorker {
  private readonly clock: () => Date;
  private readonly log: Log;

  constructor(private readonly deps: ExportWorkerDeps) {
    this.clock = deps.clock;
    this.log = deps.log;
  }

  async run(job: ExportJob, options: RunOptions): Promise<ExportOutcome> {
    const { reporter } = this.deps;
    const startedAt = this.clock();
    const claim = await this.deps.runs.claimRun(
      job,
      startedAt,
      new Date(startedAt.getTime() + options.leaseMs),
    );
    if (claim.kind !== 'claimed') return { kind: 'skipped', reason: claim.kind };

    let sequence = claim.lastSequence;
    let progress = 0;
    const report = async (status: 'RUNNING' | 'SUCCEEDED' | 'FAILED', result?: ExportResult) => {
      sequence += 1;
      const outcome = await reporter.report({ job, sequence, status, progress, result });
      if (outcome === 'stale' && status === 'RUNNING') throw new StaleWhileRunning();
      return outcome;
    };
    const key = exportObjectKey(job.taskId, job.executionId, job.format);
    const timer = new AbortController();
    const ticking = setTimeout(
      () => timer.abort(new RunOutOfTimeError(options.giveUpMs)),
      options.giveUpMs,
    );
    try {
      const writing = async () => {
        await report('RUNNING');
        return this.writeObject(job, startedAt, timer.signal, async (percent) => {
          progress = percent;
          timer.signal.throwIfAborted();
          await report('RUNNING');
        });
      };
      // The timer wins even over a call that hangs: the run stops on time, whatever it awaits.
      const result = await untilAborted(writing(), timer.signal);
      clearTimeout(ticking);
      progress = 100;
      const outcome = await report('SUCCEEDED', result);
      // Timed out before SUCCEEDED landed: the object belongs to no execution, so it goes.
      if (outcome === 'stale') return this.timedOut('SUCCEEDED', key);
      return { kind: 'succeeded', result, outcome };
    } catch (error) {
      if (error instanceof StaleWhileRunning) {
        return { kind: 'timed_out', reported: 'RUNNING', key, objectDeleted: true };
      }
      if (options.finalAttempt) {
        await report('FAILED').catch((reportError: unknown) =>
          this.log.error('export FAILED could not be reported', errorFields(reportError)),
        );
      }
      throw error;
    } finally {
      clearTimeout(ticking);
    }
  }

  /** The complete object of a timed-out execution is deleted; a failure is logged, not retried. */
  private async timedOut(reported: 'SUCCEEDED', key: string): Promise<ExportOutcome> {
    try {
      await this.deps.objects.delete(key);
      return { kind: 'timed_out', reported, key, objectDeleted: true };
    } catch (error) {
      this.log.error(
        'export object of a timed-out execution not deleted; the lifecycle rule will',
        {
          key,
          ...errorFields(error),
        },
      );
      return { kind: 'timed_out', reported, key, objectDeleted: false };
    }
  }

  /** Streams the snapshot (entries created up to `startedAt`) into the execution's object. */
  private async writeObject(
    job: ExportJob,
    startedAt: Date,
    stop: AbortSignal,
    onProgress: (percent: number) => Promise<void>,
  ): Promise<ExportResult> {
    stop.throwIfAborted();
    const key = exportObjectKey(job.taskId, job.executionId, job.format);
    const encoder = encoderFor(job.format);
    const writer = this.deps.objects.open(key, EXPORT_CONTENT_TYPES[job.format]);
    // Aborting the upload also ends a write that waits for it, so the run unwinds on the timer.
    const abortUpload = () => void writer.abort();
    stop.addEventListener('abort', abortUpload, { once: true });
    const out = new MeasuredWriter(writer, this.deps.chunkBytes);
    const progress = new ProgressClock(startedAt, this.deps.progressIntervalMs ?? 2_000);
    try {
      await out.add(encoder.header);
      let rows = 0;
      for await (const page of this.deps.runs.entryPages(job.accountId, startedAt.toISOString())) {
        stop.throwIfAborted();
        for (const entry of page) {
          await out.add(encoder.row(readEntry(entry)));
          rows += 1;
        }
        const [first, last] = [page.at(0), page.at(-1)];
        const percent =
          first && last && progress.due(first.createdAt, last.createdAt, this.clock());
        if (percent) await onProgress(percent);
      }
      stop.throwIfAborted();
      const { bytes, sha256 } = await out.finish();
      return { key, rows, bytes, sha256 };
    } catch (error) {
      await writer.abort();
      throw error;
    } finally {
      stop.removeEventListener('abort', abortUpload);
    }
  }
}

/**
 * Progress without counting first: entries are read oldest first, so the share of the time
 * between the first entry and the snapshot already passed estimates the share written. It
 * never reaches 100 before the object is complete and is reported at most once per interval.
 */
class ProgressClock {
  private first: number | undefined;
  private reported = 0;
  private reportedAt: number;

  constructor(
    private readonly snapshot: Date,
    private readonly intervalMs: number,
  ) {
    this.reportedAt = snapshot.getTime();
  }

  /** A new percentage worth reporting now, or undefined. */
  due(pageFirst: string, pageLast: string, now: Date): number | undefined {
    this.first ??= Date.parse(pageFirst);
    const at = Date.parse(pageLast);
    const span = this.snapshot.getTime() - this.first;
    const percent = span > 0 ? Math.min(99, Math.floor(((at - this.first) / span) * 100)) : 99;
    if (percent <= this.reported || now.getTime() - this.reportedAt < this.intervalMs) return;
    this.reported = percent;
    this.reportedAt = now.getTime();
    return percent;
  }
}

/** `work`, or the signal's reason as soon as it aborts (the work's own outcome is then dropped). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

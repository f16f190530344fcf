import { chain } from '../journal/chain';
import { journalEvent } from '../journal/events';
import {
  type AccountImage,
  firstSequenceOf,
  headAfter,
  type JournalHead,
  type JournalRecord,
  recordsOf,
  type StreamChange,
} from '../journal/model';
import type { JournalWritePort } from '../journal/port';
import { AccountMonitors } from '../monitors/evaluator';
import type { MonitorEvaluationPort } from '../monitors/port';
import { errorFields, type Log } from '../shared/log';
import { METRICS, type MetricsPort } from '../shared/metrics';
import type { DaySumsPort } from '../statements/port';
import { addDaySums } from './day-sums';
import type { JournalEventsPort, OutboundEvent } from './port';
import { handOff, type SearchHandOff } from './search-hand-off';

export interface JournalProjectorDeps {
  readonly store: JournalWritePort;
  readonly events: JournalEventsPort;
  /** `urn:idempotent-ledger:<stage>`. */
  readonly source: string;
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
  /** Balance monitors (docs/contract.md §28), evaluated after each update's records. */
  readonly monitors?: MonitorEvaluationPort;
  /**
   * Day sums of effective time (docs/contract.md §31, §36), added after each update's records
   * are written (and again, without effect, when a redelivery finds them written).
   */
  readonly days?: DaySumsPort;
  /** The search indexer's queue (docs/contract.md §34): handed each update, never awaited for it. */
  readonly search?: SearchHandOff;
}

type Publication = { readonly index: number; readonly event: OutboundEvent };

/** SNS PublishBatch takes at most 10 entries. */
const PUBLISH_BATCH = 10;
/** Publish calls in flight at once. */
const PUBLISH_CONCURRENCY = 4;
/** A head that moved between the read and the write is read again, at most this often. */
const MAX_HEAD_RETRIES = 3;

interface Projected {
  readonly head: JournalHead | undefined;
  /** The records to publish: written now, or already in the journal. */
  readonly records: readonly JournalRecord[];
  /** The head stood behind the update (a version gap): nothing of it is in the journal. */
  readonly behind?: true;
}

/**
 * The journal projector (docs/contract.md §15): for each account update on the stream, in
 * stream order per account, writes its records (numbered `version − n + 1 … version`) and the
 * head in ONE transaction conditional on the head standing at `version − n`; a head already at
 * or past `version` means the update was projected (no write); a head behind it is a version
 * gap, logged, counted and alarmed, never papered over. Then every record of the batch is
 * published, the already projected ones too, so a crash between commit and publish loses no
 * event. Accounts run concurrently; the answer is the first stream position to retry from.
 */
export class JournalProjector {
  constructor(private readonly deps: JournalProjectorDeps) {}

  /** Projects a batch; answers the index of the first change to retry, if any. */
  async project(changes: readonly StreamChange[]): Promise<number | undefined> {
    const lanes = new Map<string, { index: number; image: AccountImage }[]>();
    changes.forEach((change, index) => {
      if (change.kind === 'malformed') {
        this.gap('journal change unreadable; not projected', {
          accountId: change.accountId,
          reason: change.reason,
        });
        return;
      }
      if (change.kind !== 'image') return;
      const lane = lanes.get(change.image.accountId) ?? [];
      lane.push({ index, image: change.image });
      lanes.set(change.image.accountId, lane);
    });
    const failed: number[] = [];
    const toPublish: Publication[] = [];
    const watched: AccountMonitors[] = [];
    await Promise.all(
      [...lanes.values()].map(async (lane) => {
        const result = await this.projectLane(lane);
        toPublish.push(...result.published);
        if (result.monitors) watched.push(result.monitors);
        if (result.failedAt !== undefined) failed.push(result.failedAt);
      }),
    );
    const refused = await this.publish(toPublish);
    failed.push(...refused.indexes);
    failed.push(...(await handOff(this.deps.search, changes, toPublish)));
    await this.confirm(watched, refused.ids);
    return failed.length === 0 ? undefined : Math.min(...failed);
  }

  /** Monitor flips published: their `pending` is cleared (a failure only publishes them again). */
  private async confirm(watched: readonly AccountMonitors[], refused: ReadonlySet<string>) {
    for (const monitors of watched) {
      await monitors.confirm(refused).catch((error) => {
        this.deps.log.warn('monitor events published, not confirmed; published again later', {
          ...errorFields(error),
        });
      });
    }
  }

  /**
   * One account's updates in stream order; stops at the first that fails. Monitors are isolated
   * (docs/contract.md §31): a monitors read or write that fails stops only their evaluation, the
   * records go on being written and published, and the stream retries from the first update
   * not evaluated, where they are found projected and evaluated then.
   */
  private async projectLane(lane: readonly { index: number; image: AccountImage }[]) {
    const published: Publication[] = [];
    const first = lane[0];
    if (!first) return { published };
    let head: JournalHead | undefined;
    try {
      head = await this.deps.store.readHead(first.image.accountId);
    } catch (error) {
      this.failure(first.image, error);
      return { published, failedAt: first.index };
    }
    const { monitors, ...watched } = await this.watch(first);
    let failedAt = watched.failedAt;
    let daysFailedAt: number | undefined;
    for (const event of monitors?.unconfirmed() ?? [])
      published.push({ index: first.index, event });
    for (const { index, image } of lane) {
      let projected: Projected;
      try {
        projected = await this.projectOne(image, head);
      } catch (error) {
        this.failure(image, error);
        const retryFrom = Math.min(index, failedAt ?? index, daysFailedAt ?? index);
        return { published, monitors, failedAt: retryFrom };
      }
      head = projected.head;
      for (const record of projected.records) {
        published.push({ index, event: journalEvent(record, this.deps.source) });
      }
      if (daysFailedAt === undefined && !(await addDaySums(this.deps, image, projected))) {
        daysFailedAt = index;
      }
      if (failedAt !== undefined || !monitors) continue;
      try {
        for (const event of await monitors.apply(projected.records))
          published.push({ index, event });
      } catch (error) {
        this.monitorFailure(image, error);
        failedAt = index;
      }
    }
    const retryFrom = Math.min(failedAt ?? Infinity, daysFailedAt ?? Infinity);
    return { published, monitors, failedAt: Number.isFinite(retryFrom) ? retryFrom : undefined };
  }

  /** The account's monitors, or where their evaluation failed: never the projection's failure. */
  private async watch(first: {
    index: number;
    image: AccountImage;
  }): Promise<{ monitors?: AccountMonitors; failedAt?: number }> {
    try {
      return { monitors: await this.loadMonitors(first.image.accountId) };
    } catch (error) {
      this.monitorFailure(first.image, error);
      return { failedAt: first.index };
    }
  }

  private monitorFailure(image: AccountImage, error: unknown): void {
    this.deps.log.error('monitors not evaluated; the stream will retry them', {
      accountId: image.accountId,
      version: image.version,
      ...errorFields(error),
    });
  }

  private loadMonitors(accountId: string): Promise<AccountMonitors | undefined> {
    const { monitors, source } = this.deps;
    return monitors
      ? AccountMonitors.load(monitors, source, accountId)
      : Promise.resolve(undefined);
  }

  private async projectOne(image: AccountImage, start: JournalHead | undefined) {
    let head = start;
    for (let attempt = 1; ; attempt++) {
      const at = head?.lastSequence ?? 0;
      const first = firstSequenceOf(image);
      if (at >= image.version) return this.alreadyProjected(image, head);
      if (at !== first - 1) return this.behind(image, head);
      // Hashed in commit order, each linked to the one before; the head keeps the last hash.
      const records = chain(recordsOf(image, head), head);
      const outcome = await this.deps.store.append(records, head);
      if (outcome.kind === 'committed') {
        this.written(records);
        return { head: headAfter(records), records };
      }
      if (attempt >= MAX_HEAD_RETRIES) {
        throw new Error(`the journal head of ${image.accountId} keeps moving`);
      }
      head = outcome.head;
    }
  }

  /** Redelivered: nothing to write, but its records are published again (they may be lost). */
  private async alreadyProjected(
    image: AccountImage,
    head: JournalHead | undefined,
  ): Promise<Projected> {
    this.deps.metrics.count(METRICS.journalAlreadyProjected);
    if (
      head?.lastSequence === image.version &&
      (head.balanceAfter !== image.balance || head.availableAfter !== image.available)
    ) {
      // Same version, other values: something changed the account without counting it.
      this.gap('account changed without a journaled change', {
        accountId: image.accountId,
        version: image.version,
        journalBalance: head.balanceAfter,
        accountBalance: image.balance,
      });
      // The reconciler compares the account with its journal and reports it (§19).
      await this.deps.store.markForReconcile(image.accountId, image.version);
    }
    const records = await this.deps.store.readRecords(
      image.accountId,
      firstSequenceOf(image),
      image.version,
    );
    return { head, records };
  }

  private async behind(image: AccountImage, head: JournalHead | undefined): Promise<Projected> {
    this.gap('journal version gap; records not written', {
      accountId: image.accountId,
      headSequence: head?.lastSequence ?? 0,
      firstSequence: firstSequenceOf(image),
      version: image.version,
    });
    // The reconciler watches it: still behind after the retry window, it is a finding (§30).
    await this.deps.store.markForReconcile(image.accountId, head?.lastSequence ?? 0);
    return { head, records: [], behind: true };
  }

  private written(records: readonly JournalRecord[]): void {
    const { metrics, clock } = this.deps;
    metrics.count(METRICS.journalRecordsWritten, records.length);
    const last = records.at(-1);
    if (last) {
      const lag = Math.max(0, (clock().getTime() - Date.parse(last.committedAt)) / 1000);
      metrics.seconds(METRICS.journalLag, lag);
    }
  }

  private gap(message: string, fields: Record<string, unknown>): void {
    this.deps.log.error(message, fields);
    this.deps.metrics.count(METRICS.journalVersionGap);
  }

  private failure(image: AccountImage, error: unknown): void {
    this.deps.log.error('journal projection failed; the stream will retry', {
      accountId: image.accountId,
      version: image.version,
      ...errorFields(error),
    });
  }

  /** Publishes in batches of 10; answers the stream indexes and event ids not accepted. */
  private async publish(items: readonly Publication[]) {
    const { events, log, metrics } = this.deps;
    const chunks: Publication[][] = [];
    for (let i = 0; i < items.length; i += PUBLISH_BATCH) {
      chunks.push(items.slice(i, i + PUBLISH_BATCH));
    }
    const failed: number[] = [];
    const ids = new Set<string>();
    let next = 0;
    const worker = async () => {
      for (let chunk = chunks[next++]; chunk; chunk = chunks[next++]) {
        const rejected = await events.publish(chunk.map((c) => c.event)).catch((error) => {
          log.error('journal events not published; the stream will retry', errorFields(error));
          return chunk.map((c) => c.event.id);
        });
        const missed = new Set(rejected);
        metrics.count(METRICS.journalEventsPublished, chunk.length - missed.size);
        if (missed.size === 0) continue;
        metrics.count(METRICS.journalPublishFailure, missed.size);
        for (const c of chunk) if (missed.has(c.event.id)) failed.push(c.index);
        for (const id of missed) ids.add(id);
      }
    };
    await Promise.all(Array.from({ length: PUBLISH_CONCURRENCY }, worker));
    return { indexes: failed, ids };
  }
}

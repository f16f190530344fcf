/**
 * Re-fetch requests for gaps (docs/contract.md §18), owned by the one sweeper. A ledger-event
 * source's sequence item sits in the due index while it has open gaps; when it falls due the
 * sweeper re-reads it (strongly consistent) and commits, in ONE transaction, a request item for
 * the numbers due and the sequence item marking them requested (conditional on the version
 * read). Only then is the request published, and marked published: a crash in between leaves
 * the request due, so it is published again (at least once to the topic), and a second sweeper
 * finds the version moved (never a second request id for a number).
 */
import {
  EVENT_SOURCE_ITEM_KIND,
  GAP_REFETCH_EVENT_TYPE,
  GAP_REQUEST_ITEM_KIND,
} from '../../contract/gaps';
import { sha256Hex } from '../idempotency/fingerprint';
import { errorFields, type Log } from '../shared/log';
import type { SweepHandler } from '../sweeper/port';
import type {
  GapRequestPublisher,
  GapRequestStore,
  RefetchEvent,
  RefetchRequest,
  SequenceWrite,
  SourceRef,
} from './port';
import {
  type EventSourceState,
  gapsToRequest,
  markOverdueChecked,
  markRequested,
  overdueGaps,
  sourceDueAt,
} from './source-state';

/** Request ids hash (source, subject, numbers): the same numbers always get the same id. */
export function refetchRequestId(source: string, accountId: string, numbers: readonly number[]) {
  return sha256Hex(JSON.stringify(['gap-refetch', source, accountId, numbers]));
}

/** The outbound CloudEvent of a request; `source` is the service's (`urn:idempotent-ledger:<stage>`). */
export function refetchEvent(request: RefetchRequest, serviceSource: string): RefetchEvent {
  return {
    specversion: '1.0',
    type: GAP_REFETCH_EVENT_TYPE,
    id: request.id,
    source: serviceSource,
    subject: request.accountId,
    time: request.requestedAt,
    datacontenttype: 'application/json',
    data: { source: request.source, missing: [...request.missing], openedAt: request.openedAt },
  };
}

/** The request for what is due in `state` at `now`, if anything is. */
export function dueRequest(
  ref: SourceRef,
  state: EventSourceState,
  now: Date,
  refetchAfterSeconds: number,
): RefetchRequest | undefined {
  const due = gapsToRequest(state, now, refetchAfterSeconds);
  if (due.length === 0) return undefined;
  const missing = due.map((d) => d.number);
  const openedAt = new Date(Math.min(...due.map((d) => Date.parse(d.openedAt)))).toISOString();
  return {
    id: refetchRequestId(ref.source, ref.accountId, missing),
    accountId: ref.accountId,
    source: ref.source,
    missing,
    openedAt,
    requestedAt: now.toISOString(),
  };
}

export interface GapSweepOptions {
  /** `GAP_REFETCH_AFTER_SECONDS`. */
  readonly refetchAfterSeconds: number;
  /** The service's CloudEvents source, `urn:idempotent-ledger:<stage>`. */
  readonly serviceSource: string;
  readonly log: Log;
  readonly decodeSource: (attributes: Readonly<Record<string, unknown>>) => SourceRef;
  readonly decodeRequest: (attributes: Readonly<Record<string, unknown>>) => {
    readonly id: string;
    readonly event: RefetchEvent;
  };
}

export interface GapSweep {
  /** `event-source` (request what is due) and `gap-request` (publish what was not). */
  readonly handlers: readonly SweepHandler[];
  /** Overdue gap numbers seen since the last call (the `OverdueGaps` gauge of a sweep). */
  takeOverdue(): number;
}

export function gapSweep(
  store: GapRequestStore,
  publisher: GapRequestPublisher,
  options: GapSweepOptions,
): GapSweep {
  const after = options.refetchAfterSeconds;
  let overdue = 0;

  /** Publishes, then marks published; a failure leaves the request due (logged). */
  async function deliver(id: string, event: RefetchEvent, now: Date): Promise<boolean> {
    await publisher.publish(event);
    return store.markPublished(id, now);
  }

  const sources: SweepHandler = {
    kind: EVENT_SOURCE_ITEM_KIND,
    async settle(item, now) {
      const ref = options.decodeSource(item.attributes);
      const current = await store.readSource(ref);
      if (!current) return 'already_done';
      // Handed over early (the index is eventually consistent): counted at its own time.
      const dueAt = sourceDueAt(current.state, after);
      if (dueAt === undefined || dueAt > now.getTime()) return 'already_done';
      const overdueNow = overdueGaps(current.state, now, after);
      overdue += overdueNow;
      // Counted: due again GAP_OVERDUE_RECHECK_SECONDS later, not at the head of every sweep.
      const checked =
        overdueNow > 0 ? markOverdueChecked(current.state, now.toISOString()) : current.state;
      const request = dueRequest(ref, checked, now, after);
      if (!request) {
        if (overdueNow === 0) return 'already_done';
        const write = { ...ref, expectedVersion: current.version, next: checked };
        await store.reschedule({ ...write, dueAt: sourceDueAt(checked, after) }, now);
        return 'already_done';
      }
      const next = markRequested(checked, request.missing, request.requestedAt);
      const write: SequenceWrite = {
        ...ref,
        expectedVersion: current.version,
        next,
        dueAt: sourceDueAt(next, after),
      };
      const event = refetchEvent(request, options.serviceSource);
      const committed = await store.commitRequest(
        request,
        event,
        write,
        now.getTime() + after * 1000,
      );
      if (committed.kind === 'already_done') return 'already_done';
      options.log.info('gap re-fetch requested', {
        accountId: ref.accountId,
        eventSource: ref.source,
        requestId: request.id,
        missing: request.missing.length,
        openedAt: request.openedAt,
      });
      try {
        await deliver(request.id, event, now);
      } catch (error) {
        options.log.warn('gap re-fetch request not published yet; the sweeper publishes it again', {
          requestId: request.id,
          ...errorFields(error),
        });
      }
      return 'settled';
    },
  };

  const requests: SweepHandler = {
    kind: GAP_REQUEST_ITEM_KIND,
    async settle(item, now) {
      const { id, event } = options.decodeRequest(item.attributes);
      return (await deliver(id, event, now)) ? 'settled' : 'already_done';
    },
  };

  return {
    handlers: [sources, requests],
    takeOverdue() {
      const seen = overdue;
      overdue = 0;
      return seen;
    },
  };
}

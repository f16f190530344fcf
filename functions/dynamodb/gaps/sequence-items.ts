import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { EVENT_SOURCE_ITEM_KIND } from '../../contract/gaps';
import type { SequenceWrite, VersionedSequence } from '../../domain/gaps/port';
import type {
  EventSourceState,
  GapDetail,
  GapRun,
  WaivedNumber,
} from '../../domain/gaps/source-state';
import { toAttributes } from '../table/attributes';
import { dueIndexAttributes } from '../table/due-index';
import { keys } from '../table/keys';

/**
 * The one writer of a ledger-event source's sequence item (docs/contract.md §6, §18), for every
 * event write, a waiver and the sweeper's re-fetch request alike: the whole item, so the gaps'
 * details and the waived numbers are carried forward, and the due-index attributes while a gap
 * is open. Optimistic: fails when another writer moved the item since it was read.
 */
export function sequenceItem(
  tableName: string,
  write: SequenceWrite,
  at: string,
): TransactWriteItem {
  const expectsNew = write.expectedVersion === 0;
  const key = keys.eventSource(write.accountId, write.source);
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...key,
        kind: EVENT_SOURCE_ITEM_KIND,
        source: write.source,
        accountId: write.accountId,
        lastSequence: write.next.lastSequence,
        gaps: [...write.next.gaps],
        gapsTruncated: write.next.gapsTruncated,
        gapRuns: runsOf(write.next.gapDetails, (d) => ({
          openedAt: d.openedAt,
          refetchRequestedAt: d.refetchRequestedAt,
        })),
        // The missing numbers beyond the list (docs/contract.md §30), as runs like gapRuns.
        gapRanges: (write.next.gapRanges ?? []).map((range) => ({ ...range })),
        overdueCheckedAt: write.next.overdueCheckedAt,
        waivedRuns: runsOf(write.next.waived, (w) => ({ reason: w.reason, waivedAt: w.waivedAt })),
        version: write.expectedVersion + 1,
        updatedAt: at,
        ...(write.dueAt === undefined
          ? {}
          : dueIndexAttributes(`${key.pk}|${key.sk}`, new Date(write.dueAt))),
      }),
      ConditionExpression: expectsNew ? 'attribute_not_exists(pk)' : '#version = :version',
      ...(expectsNew
        ? {}
        : {
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: toAttributes({ ':version': write.expectedVersion }),
          }),
    },
  };
}

/**
 * Consecutive numbers that share their other fields are stored as one run `{ from, to, … }`:
 * a jump opens its gaps at one instant and a waiver closes many with one reason, so a forged
 * jump of 1,000 numbers stays a few hundred bytes instead of tens of kilobytes per write.
 */
type Run = Record<string, unknown> & { from: number; to: number };

function runsOf<T extends { readonly number: number }>(
  list: readonly T[],
  rest: (item: T) => Record<string, string | undefined>,
): Run[] {
  const runs: Run[] = [];
  let signature = '';
  for (const item of list) {
    const fields = Object.fromEntries(
      Object.entries(rest(item)).filter(([, value]) => value !== undefined),
    );
    const next = JSON.stringify(fields);
    const last = runs.at(-1);
    if (last !== undefined && last.to + 1 === item.number && next === signature) {
      last.to = item.number;
    } else {
      runs.push({ from: item.number, to: item.number, ...fields });
      signature = next;
    }
  }
  return runs;
}

function readRuns(value: unknown): Run[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((run): run is Record<string, unknown> => typeof run === 'object' && run !== null)
    .map((run) => ({ ...run, from: Number(run.from), to: Number(run.to) }));
}

function expand<T>(runs: readonly Run[], make: (number: number, run: Run) => T): T[] {
  return runs.flatMap((run) =>
    Array.from({ length: run.to - run.from + 1 }, (_, i) => make(run.from + i, run)),
  );
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export function toVersionedSequence(item: Record<string, unknown>): VersionedSequence {
  const gaps = Array.isArray(item.gaps) ? item.gaps.map(Number) : [];
  const opened = new Map<number, GapDetail>();
  for (const detail of expand(readRuns(item.gapRuns), (number, run) => ({
    number,
    openedAt: text(run.openedAt) ?? '',
    ...(text(run.refetchRequestedAt) === undefined
      ? {}
      : { refetchRequestedAt: text(run.refetchRequestedAt) as string }),
  }))) {
    opened.set(detail.number, detail);
  }
  // A gap recorded before gaps had details opened at the latest at the item's last write.
  const before = text(item.updatedAt) ?? new Date(0).toISOString();
  const lastSequence = Number(item.lastSequence ?? 0);
  const gapRanges = Array.isArray(item.gapRanges)
    ? readRuns(item.gapRanges).map((run) => toRange(run, before))
    : legacyRange(item.gapsTruncated === true, gaps, lastSequence, before);
  const overdueCheckedAt = text(item.overdueCheckedAt);
  const state: EventSourceState = {
    lastSequence,
    gaps,
    gapsTruncated: gapRanges.length > 0,
    gapDetails: gaps.map((number) => opened.get(number) ?? { number, openedAt: before }),
    gapRanges,
    waived: expand<WaivedNumber>(readRuns(item.waivedRuns), (number, run) => ({
      number,
      reason: text(run.reason) ?? '',
      waivedAt: text(run.waivedAt) ?? '',
    })),
    ...(overdueCheckedAt === undefined ? {} : { overdueCheckedAt }),
  };
  return { version: Number(item.version ?? 0), state };
}

function toRange(run: Run, before: string): GapRun {
  const requested = text(run.refetchRequestedAt);
  return {
    from: run.from,
    to: run.to,
    openedAt: text(run.openedAt) ?? before,
    ...(requested === undefined ? {} : { refetchRequestedAt: requested }),
  };
}

/**
 * An item written before ranges existed says only `gapsTruncated`: the numbers between its
 * highest listed gap and its last sequence may be missing. They become one range opened at the
 * item's last write, so they are asked for (a producer re-sends or waives them). With no gap
 * listed any more, where the list ended is unknown and nothing is kept (docs/contract.md §30).
 */
function legacyRange(truncated: boolean, gaps: number[], last: number, before: string): GapRun[] {
  const highest = gaps.at(-1);
  if (!truncated || highest === undefined || highest + 1 > last - 1) return [];
  return [{ from: highest + 1, to: last - 1, openedAt: before }];
}

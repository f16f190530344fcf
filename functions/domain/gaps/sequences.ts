/**
 * Reading an event's sequence item before its write (docs/contract.md §5, §6): the advance it
 * makes and the optimistic write of the item, for one event or a chunk of one account's.
 */

import type { SequenceReader, SequenceWrite } from './port';
import {
  advanceEventSource,
  EMPTY_EVENT_SOURCE,
  type EventSourceState,
  sourceDueAt,
} from './source-state';

/** What a sequence read needs of an event: whose item, which source, which number. */
interface NumberedEvent {
  readonly source: string;
  readonly accountId: string;
  readonly sequence?: number;
}

/** The one place a sequence write is built: its state and when it falls due. */
export function sequenceWrite(
  of: { readonly source: string; readonly accountId: string },
  expectedVersion: number,
  next: EventSourceState,
  refetchAfterSeconds: number,
): SequenceWrite {
  return {
    source: of.source,
    accountId: of.accountId,
    expectedVersion,
    next,
    dueAt: sourceDueAt(next, refetchAfterSeconds),
  };
}

/**
 * Gaps an event opens open at `at` (its write time), and the written item is due for a
 * re-fetch `refetchAfterSeconds` after its earliest open gap (docs/contract.md §18).
 */
export interface SequenceClock {
  readonly at: string;
  readonly refetchAfterSeconds: number;
}

export async function nextSequence(
  port: SequenceReader,
  event: NumberedEvent,
  clock: SequenceClock,
) {
  if (event.sequence === undefined) return undefined;
  const current = await port.getSequence(event.accountId, event.source);
  const advance = advanceEventSource(
    current?.state ?? EMPTY_EVENT_SOURCE,
    event.sequence,
    clock.at,
  );
  // A stale number changes nothing, so it need not contend for the sequence item.
  if (advance.position === 'stale') return { advance, write: undefined };
  const version = current?.version ?? 0;
  const write = sequenceWrite(event, version, advance.state, clock.refetchAfterSeconds);
  return { advance, write };
}

/**
 * The sequence advance of each event of a chunk, in order, and one write per source whose
 * state changed: each source's item is read once and every event of it moves it on in turn.
 */
export async function nextSequences(
  port: SequenceReader,
  events: readonly NumberedEvent[],
  clock: SequenceClock,
) {
  const sources = new Map<string, { version: number; state: EventSourceState; moved: boolean }>();
  const numbered = [
    ...new Set(events.filter((e) => e.sequence !== undefined).map((e) => e.source)),
  ];
  // One read per source, all at once: the longer the reads take, the likelier another
  // writer moves a sequence before this write lands.
  const read = await Promise.all(
    numbered.map((source) => port.getSequence(events[0]?.accountId ?? '', source)),
  );
  numbered.forEach((source, i) => {
    const current = read[i];
    sources.set(source, {
      version: current?.version ?? 0,
      state: current?.state ?? EMPTY_EVENT_SOURCE,
      moved: false,
    });
  });
  const advances = events.map((event) => {
    const source = sources.get(event.source);
    if (event.sequence === undefined || !source) return undefined;
    const advance = advanceEventSource(source.state, event.sequence, clock.at);
    if (advance.position !== 'stale') Object.assign(source, { state: advance.state, moved: true });
    return advance;
  });
  const accountId = events[0]?.accountId ?? '';
  const writes: SequenceWrite[] = [...sources]
    .filter(([, s]) => s.moved)
    .map(([source, s]) =>
      sequenceWrite({ source, accountId }, s.version, s.state, clock.refetchAfterSeconds),
    );
  return { advances, writes };
}

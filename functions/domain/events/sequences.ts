/**
 * Reading an event's sequence item before its write (docs/contract.md §5, §6): the advance it
 * makes and the optimistic write of the item, for one event or a chunk of one account's.
 */
import type { EventLedgerPort, SequenceWrite } from './port';
import { advanceSequence, EMPTY_SEQUENCE, type SequenceState } from './sequence';
import type { LedgerEventInput } from './service';

export async function nextSequence(port: EventLedgerPort, event: LedgerEventInput) {
  if (event.sequence === undefined) return undefined;
  const current = await port.getSequence(event.accountId, event.source);
  const advance = advanceSequence(current?.state ?? EMPTY_SEQUENCE, event.sequence);
  // A stale number changes nothing, so it need not contend for the sequence item.
  if (advance.position === 'stale') return { advance, write: undefined };
  const write: SequenceWrite = {
    source: event.source,
    accountId: event.accountId,
    expectedVersion: current?.version ?? 0,
    next: advance.state,
  };
  return { advance, write };
}

/**
 * The sequence advance of each event of a chunk, in order, and one write per source whose
 * state changed: each source's item is read once and every event of it moves it on in turn.
 */
export async function nextSequences(port: EventLedgerPort, events: readonly LedgerEventInput[]) {
  const sources = new Map<string, { version: number; state: SequenceState; moved: boolean }>();
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
      state: current?.state ?? EMPTY_SEQUENCE,
      moved: false,
    });
  });
  const advances = events.map((event) => {
    const source = sources.get(event.source);
    if (event.sequence === undefined || !source) return undefined;
    const advance = advanceSequence(source.state, event.sequence);
    if (advance.position !== 'stale') Object.assign(source, { state: advance.state, moved: true });
    return advance;
  });
  const accountId = events[0]?.accountId ?? '';
  const writes: SequenceWrite[] = [...sources]
    .filter(([, s]) => s.moved)
    .map(([source, s]) => ({ source, accountId, expectedVersion: s.version, next: s.state }));
  return { advances, writes };
}

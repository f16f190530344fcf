import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { sequenceWrite } from '../../../../functions/domain/gaps/sequences';
import {
  advanceEventSource,
  EMPTY_EVENT_SOURCE,
} from '../../../../functions/domain/gaps/source-state';
import { sequenceItem, toVersionedSequence } from '../../../../functions/dynamodb/events/items';

/** The sequence item's stored shape (docs/contract.md §18, §30): ranges, and items before them. */
const at = '2026-12-01T10:00:00.000Z';

function stored(state = advanceEventSource(EMPTY_EVENT_SOURCE, 1, at).state) {
  const write = sequenceWrite({ source: 'urn:p', accountId: 'a1' }, 0, state, 300);
  return unmarshall(sequenceItem('t', write, at).Put?.Item ?? {});
}

describe('the sequence item', () => {
  it('keeps the ranges beyond the list and reads them back', () => {
    const jumped = advanceEventSource(
      advanceEventSource(EMPTY_EVENT_SOURCE, 1, at).state,
      1503,
      at,
    );
    const item = stored(jumped.state);
    expect(item.gaps).toHaveLength(1000);
    expect(item.gapsTruncated).toBe(true);
    expect(item.gapRanges).toEqual([{ from: 1002, to: 1502, openedAt: at }]);
    expect(toVersionedSequence(item).state).toEqual(jumped.state);
  });

  it('reads an item written before ranges: the unknown tail becomes one range', () => {
    const legacy = {
      ...stored(),
      lastSequence: 1600,
      gaps: [998, 999, 1000],
      gapsTruncated: true,
      updatedAt: at,
    };
    delete (legacy as Record<string, unknown>).gapRanges;
    const { state } = toVersionedSequence(legacy);
    expect(state.gapsTruncated).toBe(true);
    expect(state.gapRanges).toEqual([{ from: 1001, to: 1599, openedAt: at }]);
    expect(state.gapDetails.map((d) => d.number)).toEqual([998, 999, 1000]);
  });

  it('reads an item written before ranges that listed nothing any more as untruncated', () => {
    const legacy = { ...stored(), lastSequence: 1600, gaps: [], gapsTruncated: true };
    delete (legacy as Record<string, unknown>).gapRanges;
    expect(toVersionedSequence(legacy).state).toMatchObject({
      gapsTruncated: false,
      gapRanges: [],
    });
  });
});

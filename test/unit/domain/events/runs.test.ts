import { describe, expect, it } from 'vitest';
import { MAX_TRANSACTION_ITEMS } from '../../../../functions/contract/events';
import type { LedgerEventInput } from '../../../../functions/domain/events/model';
import { chunksOf, itemsOf } from '../../../../functions/domain/events/runs';

let n = 0;
const event = (overrides: Partial<LedgerEventInput> = {}): LedgerEventInput => ({
  source: 'urn:a',
  id: `e-${n++}`,
  type: 'credit',
  accountId: 'acc',
  amount: 1,
  currency: 'EUR',
  contentHash: 'h',
  ...overrides,
});
const sizes = (chunks: readonly unknown[][]) => chunks.map((c) => c.length);

describe('chunksOf: what one transaction of a run can carry', () => {
  it('keeps a run whole up to 33 records (1 + 3 × 33 items), in order', () => {
    const run = Array.from({ length: 33 }, () => event());
    expect(chunksOf(run)).toEqual([run]);
    expect(itemsOf(run)).toBe(100);
    expect(sizes(chunksOf(Array.from({ length: 100 }, () => event())))).toEqual([33, 33, 33, 1]);
  });

  it('never names an inbox key or a paymentId twice in one chunk', () => {
    const a = event({ id: 'same' });
    const b = event({ paymentId: 'p' });
    const run = [a, event(), event({ id: 'same' }), b, event({ paymentId: 'p' }), event()];
    expect(sizes(chunksOf(run))).toEqual([2, 2, 2]);
    // The same id from another source is another inbox key.
    expect(sizes(chunksOf([event({ id: 'x' }), event({ id: 'x', source: 'urn:b' })]))).toEqual([2]);
  });

  it('ends a chunk where the currency changes', () => {
    const run = [event(), event({ currency: 'USD' }), event({ currency: 'USD' }), event()];
    expect(sizes(chunksOf(run))).toEqual([1, 2, 1]);
  });

  it('stays within 100 items: paymentId items and one sequence item per source count', () => {
    const run = Array.from({ length: 49 }, (_, i) =>
      event({ paymentId: `p-${i}`, source: `urn:s${i}`, sequence: 1 }),
    );
    const chunks = chunksOf(run);
    for (const chunk of chunks) expect(itemsOf(chunk)).toBeLessThanOrEqual(MAX_TRANSACTION_ITEMS);
    // 1 account + 5 items per record (inbox, entry, pointer, payment, sequence): 19 records = 96.
    expect(sizes(chunks)).toEqual([19, 19, 11]);
    // Records of one source share its sequence item.
    const one = Array.from({ length: 30 }, (_, i) => event({ sequence: i + 1 }));
    expect(itemsOf(one)).toBe(1 + 90 + 1);
  });
});

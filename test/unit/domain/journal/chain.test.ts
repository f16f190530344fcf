import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHAIN_GENESIS,
  chain,
  checkChain,
  pointOf,
} from '../../../../functions/domain/journal/chain';
import type { JournalRecord } from '../../../../functions/domain/journal/model';

const at = '2026-12-01T10:00:00.000Z';

/** Records 1 … n of a journal from zeros, unhashed, as `recordsOf` makes them. */
function journal(deltas: readonly number[], first = 1, start = 0): JournalRecord[] {
  let balance = start;
  return deltas.map((delta, i) => {
    balance += delta;
    return {
      accountId: 'a1',
      sequence: first + i,
      kind: delta >= 0 ? 'credit' : 'debit',
      balanceDelta: delta,
      availableDelta: delta,
      balanceAfter: balance,
      availableAfter: balance,
      committedAt: at,
      entryId: `e${first + i}`,
    };
  });
}

/** The independent implementation (docs/contract.md §27): node:crypto and canonicalize only. */
function independentHashes(records: readonly object[]): string[] {
  let previous = '0'.repeat(64);
  return records.map((record) => {
    const { hash: _hash, ...content } = record as Record<string, unknown>;
    if (content.chainStart === true) previous = '0'.repeat(64);
    previous = createHash('sha256')
      .update(previous + (canonicalize(content) ?? ''))
      .digest('hex');
    return previous;
  });
}

const deltasArb = fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 30 });

describe('the journal hash chain (docs/contract.md §27)', () => {
  it('hashes each record over the previous hash and its canonical JSON, from 64 zeros', () => {
    fc.assert(
      fc.property(deltasArb, (deltas) => {
        const records = chain(journal(deltas), undefined);
        expect(records[0]?.chainStart).toBe(true);
        expect(records.slice(1).some((r) => r.chainStart)).toBe(false);
        expect(records.map((r) => r.hash)).toEqual(independentHashes(records));
        expect(checkChain(records, undefined).breaks).toEqual([]);
      }),
    );
  });

  it('continues from the head of an earlier update: two updates chain like one', () => {
    const all = chain(journal([5, 7, -3, 4]), undefined);
    const first = chain(journal([5, 7]), undefined);
    const second = chain(journal([-3, 4], 3, 12), pointOf(first[1] as JournalRecord));
    expect([...first, ...second]).toEqual(all);
  });

  it('starts the chain at the first record written after a journal without hashes', () => {
    const legacy = journal([10, 20]);
    const hashed = chain(journal([5], 3, 30), { hash: undefined });
    expect(hashed[0]).toMatchObject({ sequence: 3, chainStart: true });
    expect(hashed[0]?.hash).toBe(independentHashes(hashed)[0]);
    expect(checkChain([...legacy, ...hashed], undefined).breaks).toEqual([]);
  });

  it('covers fields it does not know: a record with an added field hashes it too', () => {
    const plain = journal([5, 6]);
    const withField = plain.map((r) => ({ ...r, effectiveAt: '2026-11-30T00:00:00.000Z' }));
    const a = chain(plain, undefined);
    const b = chain(withField, undefined);
    expect(b[0]?.hash).not.toBe(a[0]?.hash);
    expect(b.map((r) => r.hash)).toEqual(independentHashes(b));
    expect(checkChain(b, undefined).breaks).toEqual([]);
    const edited = b.map((r, i) =>
      i === 0 ? { ...r, effectiveAt: '2026-11-29T00:00:00.000Z' } : r,
    );
    expect(checkChain(edited, undefined).breaks.map((x) => [x.sequence, x.problem])).toEqual([
      [1, 'hash'],
    ]);
  });

  it('breaks at the edited record, whichever field is edited, and nowhere before it', () => {
    const records = chain(journal([5, 7, -3, 4, 9, -1]), undefined);
    const fields = Object.keys(records[0] as object).filter((f) => f !== 'chainStart');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: records.length - 1 }),
        fc.constantFrom(...fields),
        (index, field) => {
          const edited = records.map((r, i) => {
            if (i !== index) return r;
            const value = (r as unknown as Record<string, unknown>)[field];
            const other = typeof value === 'number' ? value + 1 : `${String(value)}x`;
            return { ...r, [field]: other } as JournalRecord;
          });
          const { breaks } = checkChain(edited, undefined);
          expect(breaks[0]?.sequence).toBe(index + 1);
        },
      ),
    );
  });

  it('reports a removed hash, a second chain start and a missing record', () => {
    const records = chain(journal([1, 2, 3, 4]), undefined);
    const [r1, r2, r3, r4] = records as [
      JournalRecord,
      JournalRecord,
      JournalRecord,
      JournalRecord,
    ];
    const { hash: _dropped, ...unhashed } = r3;
    expect(checkChain([r1, r2, unhashed, r4], undefined).breaks[0]).toMatchObject({
      sequence: 3,
      problem: 'hash',
    });
    const restarted = chain([{ ...r3, hash: undefined, chainStart: undefined }], undefined);
    expect(checkChain([r1, r2, ...restarted], undefined).breaks[0]).toMatchObject({
      sequence: 3,
      problem: 'hash',
    });
    expect(checkChain([r1, r2, r4], undefined).breaks[0]).toMatchObject({
      sequence: 3,
      problem: 'sequence',
    });
    expect(CHAIN_GENESIS).toBe('0'.repeat(64));
  });

  it('checks incrementally from a point: the same breaks as a check from the start', () => {
    const records = chain(journal([5, 7, -3, 4, 9]), undefined);
    const edited = records.map((r, i) =>
      i === 3 ? { ...r, committedAt: at.replace('10', '11') } : r,
    );
    const whole = checkChain(edited, undefined).breaks;
    const from = pointOf(edited[1] as JournalRecord);
    expect(checkChain(edited.slice(2), from).breaks).toEqual(whole);
  });
});

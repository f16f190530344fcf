import { describe, expect, it } from 'vitest';
import { padSequence } from '../../../../functions/contract/journal';
import { chain } from '../../../../functions/domain/journal/chain';
import type { JournalHead, JournalRecord } from '../../../../functions/domain/journal/model';
import {
  type ChainCheckpoint,
  JournalVerifier,
  type JournalVerifyPort,
  type TimeCopy,
} from '../../../../functions/domain/journal/verify';

/** Records 1 … n from zeros, hashed, one second apart. */
function journal(n: number, from = 1, previous?: JournalRecord): JournalRecord[] {
  let balance = previous?.balanceAfter ?? 0;
  const records = Array.from({ length: n }, (_, i): JournalRecord => {
    const sequence = from + i;
    balance += sequence;
    return {
      accountId: 'a1',
      sequence,
      kind: 'credit',
      balanceDelta: sequence,
      availableDelta: sequence,
      balanceAfter: balance,
      availableAfter: balance,
      committedAt: new Date(Date.UTC(2026, 11, 1, 10, 0, sequence)).toISOString(),
      entryId: `e${sequence}`,
    };
  });
  return chain(records, previous);
}

const keyOf = (r: Pick<JournalRecord, 'committedAt' | 'sequence'>) =>
  `${r.committedAt}#${padSequence(r.sequence)}`;
const headOf = (r: JournalRecord): JournalHead => ({
  accountId: 'a1',
  lastSequence: r.sequence,
  balanceAfter: r.balanceAfter,
  availableAfter: r.availableAfter,
  committedAt: r.committedAt,
  ...(r.hash === undefined ? {} : { hash: r.hash }),
});

/** The table as verify reads it: records, copies in key order (pages of 3), head, account. */
function table(records: JournalRecord[]) {
  const state = {
    records: new Map(records.map((r) => [r.sequence, r])),
    copies: records.map((r): TimeCopy => ({ key: keyOf(r), record: r })),
    heads: [headOf(records.at(-1) as JournalRecord)],
    version: records.length,
    checkpoint: undefined as ChainCheckpoint | undefined,
  };
  let headReads = 0;
  const port: JournalVerifyPort = {
    readHead: async () => state.heads[Math.min(headReads++, state.heads.length - 1)],
    readAccountVersion: async () => state.version,
    readRecords: async (_a, from, to) =>
      [...state.records.values()]
        .filter((r) => r.sequence >= from && r.sequence <= to)
        .sort((a, b) => a.sequence - b.sequence),
    readTimeCopies: async (_a, through, start) => {
      const sorted = state.copies
        .filter((c) => c.key <= keyOf({ ...through, sequence: through.lastSequence }))
        .sort((a, b) => a.key.localeCompare(b.key));
      const at = Number(start ?? 0);
      const items = sorted.slice(at, at + 3);
      return at + 3 < sorted.length ? { items, next: String(at + 3) } : { items };
    },
    readCheckpoint: async () => state.checkpoint,
    journalAccounts: async () => ({ items: ['a1'] }),
  };
  const verifier = new JournalVerifier(port, { wait: async () => {} });
  return { state, verify: () => verifier.verifyAccount('a1') };
}

const copyOf = (state: ReturnType<typeof table>['state'], sequence: number) =>
  state.copies.findIndex((c) => c.record.sequence === sequence);

describe('verify walks records and copies together (docs/contract.md §31)', () => {
  it('verifies a sound journal over several pages of copies', async () => {
    expect(await table(journal(10)).verify()).toEqual({ accountId: 'a1', records: 10 });
  });

  it('a deleted copy is a break at its record', async () => {
    const { state, verify } = table(journal(8));
    state.copies.splice(copyOf(state, 5), 1);
    expect((await verify()).broken).toMatchObject({
      sequence: 5,
      detail: expect.stringMatching(/no time-keyed copy/),
    });
  });

  it('a duplicated copy is a break, wherever its key puts it', async () => {
    for (const committedAt of ['2026-12-01T10:00:04.500Z', '2026-12-01T10:00:07.500Z']) {
      const { state, verify } = table(journal(8));
      const record = state.records.get(4) as JournalRecord;
      state.copies.push({ key: `${committedAt}#${padSequence(4)}`, record });
      expect((await verify()).broken).toMatchObject({ sequence: 4 });
    }
  });

  it('a copy truncated or keyed otherwise is a break', async () => {
    const truncated = table(journal(6));
    const at = copyOf(truncated.state, 3);
    const copy = truncated.state.copies[at] as TimeCopy;
    const { entryId: _cut, ...rest } = copy.record;
    truncated.state.copies[at] = { key: copy.key, record: rest };
    expect((await truncated.verify()).broken).toMatchObject({
      sequence: 3,
      detail: expect.stringMatching(/differs/),
    });
    const rekeyed = table(journal(6));
    const moved = rekeyed.state.copies[copyOf(rekeyed.state, 2)] as TimeCopy;
    rekeyed.state.copies[copyOf(rekeyed.state, 2)] = { ...moved, key: `${moved.key}0` };
    expect((await rekeyed.verify()).broken).toMatchObject({
      sequence: 2,
      detail: expect.stringMatching(/keyed/),
    });
  });

  it('records truncated with their head are a break: the head trails the account', async () => {
    const { state, verify } = table(journal(8));
    for (const sequence of [7, 8]) state.records.delete(sequence);
    state.copies = state.copies.filter((c) => c.record.sequence < 7);
    state.heads = [headOf(state.records.get(6) as JournalRecord)];
    expect((await verify()).broken).toMatchObject({ sequence: 7, problem: 'sequence' });
  });

  it('a rewritten suffix is caught by the checkpoint kept outside the records', async () => {
    const records = journal(8);
    const { state, verify } = table(records);
    state.checkpoint = { sequence: 7, hash: records[6]?.hash };
    // Records 5… rewritten with consistent hashes, copies and head too.
    const forged = chain(
      journal(4, 5, records[3]).map((r) => ({ ...r, entryId: `forged${r.sequence}` })),
      records[3],
    );
    for (const r of forged) state.records.set(r.sequence, r);
    state.copies = [...records.slice(0, 4), ...forged].map((r) => ({ key: keyOf(r), record: r }));
    state.heads = [headOf(forged.at(-1) as JournalRecord)];
    expect((await verify()).broken).toMatchObject({
      sequence: 7,
      detail: expect.stringMatching(/rewritten/),
    });
    // Without the checkpoint the table alone cannot tell (docs/contract.md §27).
    state.checkpoint = undefined;
    expect((await verify()).broken).toBeUndefined();
  });

  it('a live journal verifies clean: the head catches up, later copies are not read', async () => {
    const records = journal(12);
    const { state, verify } = table(records);
    // The account is at 10 when read; the head reaches it after a wait; copies of 11–12 exist.
    state.version = 10;
    state.heads = [headOf(records[7] as JournalRecord), headOf(records[9] as JournalRecord)];
    expect(await verify()).toEqual({ accountId: 'a1', records: 10 });
  });

  it('a head that stays behind the account is a break', async () => {
    const { state, verify } = table(journal(5));
    state.version = 7;
    expect((await verify()).broken).toMatchObject({
      sequence: 6,
      detail: expect.stringMatching(/version 7/),
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../../functions/domain/journal/model';
import type { JournalAccount } from '../../../../functions/domain/journal/port';
import { JournalService } from '../../../../functions/domain/journal/service';
import { fakeJournalReadPort } from '../../../support/fakes/journal';

const now = new Date('2026-12-01T12:00:00.000Z');
const account = (over: Partial<JournalAccount> = {}): JournalAccount => ({
  accountId: 'a1',
  ownerId: 'alice',
  balance: 300,
  available: 250,
  version: 4,
  updatedAt: '2026-12-01T11:00:00.000Z',
  journalFromCreation: true,
  ...over,
});
const record = (over: Partial<JournalRecord> = {}): JournalRecord => ({
  accountId: 'a1',
  sequence: 3,
  kind: 'credit',
  balanceDelta: 100,
  availableDelta: 100,
  balanceAfter: 300,
  availableAfter: 250,
  committedAt: '2026-12-01T10:30:00.000Z',
  ...over,
});

function service(over: Parameters<typeof fakeJournalReadPort>[0] = {}, readers: string[] = []) {
  const port = fakeJournalReadPort({ getAccount: async () => account(), ...over });
  return { port, journal: new JournalService(port, { readers }) };
}

describe('as-of balances (docs/contract.md §15)', () => {
  it('answers the values before the first record committed after asOf', async () => {
    const { journal, port } = service({ firstRecordAfter: async () => record() });
    expect(await journal.balancesAsOf('alice', 'a1', '2026-12-01T11:20:00+01:00', now)).toEqual({
      accountId: 'a1',
      asOf: '2026-12-01T10:20:00.000Z',
      balance: 200,
      available: 150,
      sequence: 2,
    });
    expect(port.firstRecordAfter).toHaveBeenCalledWith('a1', '2026-12-01T10:20:00.000Z');
  });

  it('answers from the account when nothing was committed after asOf and asOf is past its last change', async () => {
    const { journal } = service();
    expect(
      await journal.balancesAsOf('alice', 'a1', '2026-12-01T11:00:00.000Z', now),
    ).toMatchObject({
      balance: 300,
      available: 250,
      sequence: 4,
    });
  });

  it('answers 503 while the journal trails a change the answer depends on', async () => {
    const { journal } = service();
    await expect(
      journal.balancesAsOf('alice', 'a1', '2026-12-01T10:59:59.999Z', now),
    ).rejects.toMatchObject({
      code: 'unavailable',
    });
  });

  it('answers zeros and sequence 0 before a new account existed', async () => {
    const { journal } = service({
      getAccount: async () => account({ version: 0, balance: 0, available: 0 }),
    });
    expect(await journal.balancesAsOf('alice', 'a1', '2020-01-01T00:00:00Z', now)).toMatchObject({
      balance: 0,
      sequence: 0,
    });
  });

  it('refuses an instant before the journal of an account older than it', async () => {
    const opening = service({
      firstRecordAfter: async () => record({ sequence: 1, opening: true }),
    });
    await expect(
      opening.journal.balancesAsOf('alice', 'a1', '2026-12-01T10:00:00Z', now),
    ).rejects.toMatchObject({ code: 'validation_failed', errors: [{ path: 'query.asOf' }] });
    const untouched = service({
      getAccount: async () => account({ version: 0, journalFromCreation: false }),
    });
    await expect(
      untouched.journal.balancesAsOf('alice', 'a1', '2026-12-01T10:00:00Z', now),
    ).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('refuses an instant in the future without reading anything', async () => {
    const { journal, port } = service();
    await expect(
      journal.balancesAsOf('alice', 'a1', '2026-12-01T12:00:00.001Z', now),
    ).rejects.toMatchObject({ code: 'validation_failed', errors: [{ path: 'query.asOf' }] });
    expect(port.getAccount).not.toHaveBeenCalled();
  });
});

describe('who may read a journal', () => {
  it('is the owner or a journal reader; anyone else gets not_found as for a missing account', async () => {
    const { journal } = service({}, ['reader']);
    await expect(journal.listJournal('alice', 'a1', 0, 10)).resolves.toBeDefined();
    await expect(journal.listJournal('reader', 'a1', 0, 10)).resolves.toBeDefined();
    await expect(journal.listJournal('mallory', 'a1', 0, 10)).rejects.toMatchObject({
      code: 'not_found',
    });
    const missing = service({ getAccount: async () => undefined }, ['reader']);
    await expect(missing.journal.listJournal('reader', 'a1', 0, 10)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

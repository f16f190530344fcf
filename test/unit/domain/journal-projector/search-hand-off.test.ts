import { describe, expect, it } from 'vitest';
import { journalEvent } from '../../../../functions/domain/journal/events';
import type { JournalRecord } from '../../../../functions/domain/journal/model';
import { handOff } from '../../../../functions/domain/journal-projector/search-hand-off';
import type { IndexJob } from '../../../../functions/domain/search/port';
import { fakeIndexQueue } from '../../../support/fakes/search';

/** The projector's hand-off to the search indexer (docs/contract.md §34). */
const record = (accountId: string, sequence: number): JournalRecord => ({
  accountId,
  sequence,
  kind: 'credit',
  entryId: `e${sequence}`,
  balanceDelta: 1,
  availableDelta: 1,
  balanceAfter: sequence,
  availableAfter: sequence,
  committedAt: '2026-01-01T00:00:00.000Z',
});
const published = (index: number, accountId: string, sequence: number) => ({
  index,
  event: journalEvent(record(accountId, sequence), 'urn:idempotent-ledger:test'),
});

describe('search hand-off', () => {
  it('sends one job per account with records (first to last sequence) and one per account change', async () => {
    const queue = fakeIndexQueue();
    const failed = await handOff(
      queue,
      [{ kind: 'other' }, { kind: 'account', accountId: 'new' }, { kind: 'other' }],
      [published(0, 'a', 4), published(2, 'a', 5), published(2, 'b', 1)],
    );
    expect(failed).toEqual([]);
    expect(queue.send.mock.calls[0]?.[0]).toEqual([
      { kind: 'account', accountId: 'new' },
      { kind: 'journal', accountId: 'a', from: 4, through: 5 },
      { kind: 'journal', accountId: 'b', from: 1, through: 1 },
    ]);
  });

  it('answers the stream index of each job SQS refused, to retry from there', async () => {
    const queue = fakeIndexQueue({
      send: async (jobs: readonly IndexJob[]) => jobs.filter((job) => job.accountId === 'b'),
    });
    const failed = await handOff(queue, [], [published(0, 'a', 1), published(3, 'b', 2)]);
    expect(failed).toEqual([3]);
  });

  it('sends nothing without a queue or without changes', async () => {
    const queue = fakeIndexQueue();
    expect(await handOff(undefined, [{ kind: 'account', accountId: 'x' }], [])).toEqual([]);
    expect(await handOff(queue, [{ kind: 'other' }], [])).toEqual([]);
    expect(queue.send).not.toHaveBeenCalled();
  });
});

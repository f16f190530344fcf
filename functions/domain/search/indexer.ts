import type { JournalKind } from '../journal/model';
import type { Log } from '../shared/log';
import { MOVED, type OptimisticRetryOptions, retryOptimistic } from '../shared/retry';
import { accountPairs, entryPairs, type IndexedObject, planIndex } from './model';
import type { IndexJob, IndexSourcePort, SearchIndexPort } from './port';

export interface SearchIndexerDeps {
  readonly index: SearchIndexPort;
  readonly source: IndexSourcePort;
  readonly log: Log;
  /** Tuning of the read → write loop per object (tests). */
  readonly optimistic?: OptimisticRetryOptions;
}

/** Journal kinds without an entry of their own: holds are not searchable (§36). */
const NOT_SEARCHABLE: ReadonlySet<JournalKind> = new Set(['hold_placed', 'hold_released']);

/**
 * The search indexer (docs/contract.md §34): runs the jobs the journal projector hands it.
 * A journal job indexes the account's entries from where its index head stands (or the job's
 * first record, for an account never indexed) through the job's last record, then raises the
 * head: jobs may come twice or out of order, and a job already covered writes nothing. An
 * account job indexes the account as it is now. Each object is ONE transaction guarded by its
 * record of indexed pairs, so counts stay exact and removed pairs leave the index.
 */
export class SearchIndexer {
  constructor(private readonly deps: SearchIndexerDeps) {}

  async run(job: IndexJob): Promise<void> {
    if (job.kind === 'account') return this.indexAccount(job.accountId);
    return this.indexJournal(job);
  }

  private async indexAccount(accountId: string): Promise<void> {
    const found = await this.deps.source.account(accountId);
    if (!found) return;
    const { account, metadata } = found;
    await this.indexObject({
      kind: 'account',
      id: account.id,
      ownerId: account.ownerId,
      sortAt: account.createdAt,
      ...(account.name === undefined ? {} : { name: account.name.toLowerCase() }),
      pairs: accountPairs(metadata),
    });
  }

  private async indexJournal(job: Extract<IndexJob, { kind: 'journal' }>): Promise<void> {
    const { index, source, log } = this.deps;
    const head = await index.readHead(job.accountId);
    const from = head ? head.sequence + 1 : job.from;
    if (from > job.through) return;
    const found = await source.account(job.accountId);
    if (!found) {
      log.warn('search: the account of a journal job is gone; not indexed', { ...job });
      return;
    }
    const records = await source.records(job.accountId, from, job.through);
    for (const record of records) {
      if (record.entryId === undefined || NOT_SEARCHABLE.has(record.kind)) continue;
      const entry = await source.entry(job.accountId, record.entryId);
      // Written in the same transaction as the change the record describes: it exists.
      if (!entry) throw new Error(`entry ${record.entryId} of ${job.accountId} not found`);
      await this.indexObject({
        kind: 'entry',
        id: entry.id,
        ownerId: found.account.ownerId,
        sortAt: entry.createdAt,
        accountId: job.accountId,
        pairs: entryPairs(entry),
      });
    }
    const last = records.at(-1);
    if (last) {
      await index.raiseHead(job.accountId, {
        sequence: last.sequence,
        committedAt: last.committedAt,
      });
    }
  }

  private async indexObject(next: IndexedObject): Promise<void> {
    const { index } = this.deps;
    await retryOptimistic<void>(
      this.deps.optimistic ?? {},
      async () => {
        const previous = await index.indexed(next.kind, next.id);
        const plan = planIndex(previous?.object, next);
        if (!plan) return;
        const result = await index.write(previous, next, plan);
        return result.kind === 'moved' ? MOVED : undefined;
      },
      () => new Error(`the search index of ${next.kind} ${next.id} kept changing`),
    );
  }
}

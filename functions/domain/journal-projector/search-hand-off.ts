import { JOURNAL_EVENT_TYPE } from '../../contract/journal';
import type { StreamChange } from '../journal/model';
import type { IndexJob, IndexQueue } from '../search/port';
import type { OutboundEvent } from './port';

/** The search indexer's queue as the projector sees it (docs/contract.md §34). */
export type SearchHandOff = IndexQueue;

type Job = { readonly index: number; readonly job: IndexJob };

/**
 * The projector's hand-off to the search indexer (docs/contract.md §34): one job per account
 * whose journal records this batch wrote or published again (its first to its last sequence),
 * and one per account created or whose metadata changed. The journal never waits for the index:
 * only a send SQS refused is retried, with the batch from that record on (the journal's part is
 * a no-op then). Answers the stream indexes to retry from.
 */
export async function handOff(
  queue: SearchHandOff | undefined,
  changes: readonly StreamChange[],
  published: readonly { readonly index: number; readonly event: OutboundEvent }[],
): Promise<number[]> {
  if (!queue) return [];
  const jobs: Job[] = [];
  changes.forEach((change, index) => {
    if (change.kind === 'account') {
      jobs.push({ index, job: { kind: 'account', accountId: change.accountId } });
    }
  });
  const journals = new Map<string, { index: number; from: number; through: number }>();
  for (const { index, event } of published) {
    if (event.type !== JOURNAL_EVENT_TYPE) continue;
    const { accountId, sequence } = event.data;
    const seen = journals.get(accountId);
    journals.set(accountId, {
      index: Math.min(index, seen?.index ?? index),
      from: Math.min(sequence, seen?.from ?? sequence),
      through: Math.max(sequence, seen?.through ?? sequence),
    });
  }
  for (const [accountId, { index, from, through }] of journals) {
    jobs.push({ index, job: { kind: 'journal', accountId, from, through } });
  }
  if (jobs.length === 0) return [];
  const unsent = new Set(await queue.send(jobs.map((j) => j.job)));
  return jobs.filter((j) => unsent.has(j.job)).map((j) => j.index);
}

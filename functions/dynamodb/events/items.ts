import type { EventRunWrite } from '../../domain/events/port';
import { postingGuard } from '../../domain/movements/legs';
import { sequenceItem } from '../gaps/sequence-items';
import { inboxItem } from '../idempotency/inbox';
import { entryLeg, type MoneyPlan } from '../movements/plan';

/** Re-exported for the readers of events (tests, the console, benches). */
export { toVersionedSequence } from '../gaps/sequence-items';
export { inboxScopeId, seenInboxItem } from '../idempotency/inbox';
export { inboxItem, sequenceItem };

/**
 * The plan of a batched event write (docs/contract.md §20) for the one composer
 * (`dynamodb/movements/compose.ts`): per record its inbox item (decisive: a seen record settles
 * the attempt) and its leg — so ONE account update carries every record's change (`version` + n,
 * the changes in `lastChanges`), covering each debit at its turn — then one sequence item per
 * source. Producers are trusted by IAM: no owner; the account must be open (§17). `runs.ts`
 * guarantees no item twice and at most 100.
 */
export function runPlan(tableName: string, run: EventRunWrite): MoneyPlan {
  const last = run.records.at(-1)?.entry;
  if (!last) throw new Error('a batched event write has at least one record');
  return {
    movements: run.records.map(({ claim, entry }) => ({
      before: [{ role: 'inbox', item: inboxItem(tableName, claim, entry.id), decisive: true }],
      legs: [entryLeg(entry, postingGuard(entry))],
    })),
    tail: run.sequences.map((sequence) => ({
      role: 'sequence',
      item: sequenceItem(tableName, sequence, last.createdAt),
    })),
  };
}

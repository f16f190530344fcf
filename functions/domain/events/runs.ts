/**
 * Which records of a batch commit together (docs/contract.md §20): a run is consecutive
 * credits and debits of one account in lane order; it is cut into chunks that one
 * TransactWriteItems can carry. A chunk never names an item twice — DynamoDB refuses two
 * actions on one item as a ValidationException, not a cancellation — so it ends before a
 * record whose inbox key (source, id) or paymentId it already holds; several records of one
 * source share one sequence item write. It also ends at the transaction limits (100 items,
 * at most 49 records; with an inbox item, an entry and its pointer each, 33 fill the 100)
 * and where the currency changes (a record in another currency cannot apply with the rest).
 * The 49 is the journal's own bound on the changes one account update carries
 * (MAX_CHANGES_PER_UPDATE): the projector writes one journal record per change.
 */
import { MAX_TRANSACTION_ITEMS } from '../../contract/events';
import { MAX_CHANGES_PER_UPDATE } from '../journal/model';
import type { LedgerEventInput } from './model';

/** Every record's own items: its inbox item, its entry and the entry's pointer (§16). */
export const ITEMS_PER_RECORD = 3;

/**
 * Items of a chunk: the account, then per record its inbox item, its entry, the entry's pointer
 * and its paymentId item, and one sequence item per source that numbers its events.
 */
export function itemsOf(chunk: readonly LedgerEventInput[]): number {
  const sources = new Set(chunk.filter((e) => e.sequence !== undefined).map((e) => e.source));
  return (
    1 +
    chunk.reduce((sum, e) => sum + ITEMS_PER_RECORD + (e.paymentId === undefined ? 0 : 1), 0) +
    sources.size
  );
}

const inboxKey = (e: LedgerEventInput) => JSON.stringify([e.source, e.id]);

/** Cuts one run (credits and debits of one account, in order) into chunks, order kept. */
export function chunksOf(run: readonly LedgerEventInput[]): LedgerEventInput[][] {
  const chunks: LedgerEventInput[][] = [];
  let chunk: LedgerEventInput[] = [];
  let inbox = new Set<string>();
  let payments = new Set<string>();
  for (const event of run) {
    const fits =
      chunk.length < MAX_CHANGES_PER_UPDATE &&
      !inbox.has(inboxKey(event)) &&
      (event.paymentId === undefined || !payments.has(event.paymentId)) &&
      (chunk[0] === undefined || chunk[0].currency === event.currency) &&
      itemsOf([...chunk, event]) <= MAX_TRANSACTION_ITEMS;
    if (!fits) {
      chunks.push(chunk);
      chunk = [];
      inbox = new Set();
      payments = new Set();
    }
    chunk.push(event);
    inbox.add(inboxKey(event));
    if (event.paymentId !== undefined) payments.add(event.paymentId);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

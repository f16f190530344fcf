import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { type PostingEntry, signedAmount } from '../../domain/accounts/model';
import type { AccountChange } from '../../domain/journal/model';
import type { EntryGuard } from '../../domain/movements/guard';
import type { PostingRejection } from '../../domain/movements/rejections';
import { newEntryItems, paymentItem } from '../accounts/entries';
import { toAccountRecord } from '../accounts/items';
import { accountChangeItem } from './account-change';
import { legChange } from './legs';

type PostingRole = 'account' | 'entry' | 'pointer' | 'payment';

/**
 * The change one posting (credit, debit, export fee) makes to its account, as the journal reads
 * it from `lastChanges`: a batched event write carries one per record (docs/contract.md §20).
 */
export function postingChange(entry: PostingEntry): AccountChange {
  return legChange(entry, signedAmount(entry));
}

/**
 * The parts every posting (credit, debit, export fee) writes: the guarded account change,
 * which moves `balance` and `available` alike, the ledger entry and its pointer, the paymentId
 * when given.
 */
export function postingItems(
  tableName: string,
  entry: PostingEntry,
  guard: EntryGuard,
): { role: PostingRole; item: TransactWriteItem }[] {
  const change = postingChange(entry);
  const [listed, pointer] = newEntryItems(tableName, entry);
  const payment = paymentItem(tableName, entry);
  const account = accountChangeItem(tableName, {
    accountId: entry.accountId,
    changes: [change],
    ownerId: guard.ownerId,
    currency: guard.currency,
    requireAvailableAtLeast: guard.requireAvailableAtLeast,
    requireOpen: guard.requireOpen,
  });
  return [
    { role: 'account', item: account },
    { role: 'entry', item: listed },
    { role: 'pointer', item: pointer },
    ...(payment ? [{ role: 'payment' as const, item: payment }] : []),
  ];
}

/** The refusal of a cancelled posting after its claim: the account first, then the paymentId. */
export function postingRejection(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): PostingRejection | undefined {
  if (failed.has('account')) {
    const account = failed.get('account');
    return { kind: 'account_rejected', account: account ? toAccountRecord(account) : undefined };
  }
  if (failed.has('payment')) return { kind: 'payment_id_taken' };
  return undefined;
}

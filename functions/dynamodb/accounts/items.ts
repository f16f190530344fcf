import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { ACCOUNT_ITEM_KIND } from '../../contract/names';
import {
  type AccountRecord,
  type LedgerEntry,
  type PostingEntry,
  TRANSACTION_TYPES,
} from '../../domain/accounts/model';
import type { EntryGuard } from '../../domain/accounts/port';
import type { AccountChange } from '../../domain/journal/model';
import { putNew } from '../table/attributes';
import { keys } from '../table/keys';
import { accountChangeItem } from './account-change';

/** Set on accounts created with the journal: their record 1 starts from zeros (§15). */
export const JOURNAL_FROM_CREATION = 'journalFromCreation';

/**
 * A new account starts at `version` 0 and is marked as created with the journal, so the
 * projector starts its journal from zeros (docs/contract.md §15); accounts from before the
 * journal have neither attribute.
 */
export function newAccountItem(tableName: string, account: AccountRecord): TransactWriteItem {
  return putNew(tableName, {
    ...keys.account(account.id),
    kind: ACCOUNT_ITEM_KIND,
    ...account,
    [JOURNAL_FROM_CREATION]: true,
  });
}

export function entryItem(tableName: string, entry: LedgerEntry): TransactWriteItem {
  return putNew(tableName, {
    ...keys.entry(entry.accountId, entry.createdAt, entry.id),
    kind: 'entry',
    ...entry,
  });
}

export function paymentItem(tableName: string, entry: LedgerEntry): TransactWriteItem | undefined {
  if (entry.paymentId === undefined) return undefined;
  return putNew(tableName, {
    ...keys.payment(entry.accountId, entry.paymentId),
    kind: 'payment',
    entryId: entry.id,
    createdAt: entry.createdAt,
  });
}

const optionalText = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function toAccountRecord(item: Record<string, unknown>): AccountRecord {
  return {
    id: String(item.id),
    ownerId: String(item.ownerId),
    currency: String(item.currency),
    balance: Number(item.balance),
    // Accounts from before holds have no `available`: it equals the balance (docs/contract.md §11).
    available: Number(item.available ?? item.balance),
    name: optionalText(item.name),
    // Accounts from before the journal count their changes from its first one (§15).
    version: Number(item.version ?? 0),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

export function toLedgerEntry(item: Record<string, unknown>): LedgerEntry {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    type: TRANSACTION_TYPES.find((type) => type === item.type) ?? 'credit',
    amount: Number(item.amount),
    currency: String(item.currency),
    reference: optionalText(item.reference),
    paymentId: optionalText(item.paymentId),
    transferId: optionalText(item.transferId),
    counterpartyAccountId: optionalText(item.counterpartyAccountId),
    holdId: optionalText(item.holdId),
    origin: item.origin === 'event' ? 'event' : 'http',
    createdAt: String(item.createdAt),
  };
}

/**
 * The change one posting (credit, debit, export fee) makes to its account, as the journal reads
 * it from `lastChanges`: a batched event write carries one per record (docs/contract.md §20).
 */
export function postingChange(entry: PostingEntry): AccountChange {
  const delta = entry.type === 'credit' ? entry.amount : -entry.amount;
  return {
    kind: entry.type,
    balanceDelta: delta,
    availableDelta: delta,
    at: entry.createdAt,
    entryId: entry.id,
  };
}

/**
 * The parts every posting (credit, debit, export fee) writes: the guarded account change,
 * which moves `balance` and `available` alike, the ledger entry, the paymentId when given.
 */
export function postingItems(
  tableName: string,
  entry: PostingEntry,
  guard: EntryGuard,
): { role: 'account' | 'entry' | 'payment'; item: TransactWriteItem }[] {
  const parts: { role: 'account' | 'entry' | 'payment'; item: TransactWriteItem }[] = [
    {
      role: 'account',
      item: accountChangeItem(tableName, {
        accountId: entry.accountId,
        changes: [postingChange(entry)],
        ownerId: guard.ownerId,
        currency: guard.currency,
        requireAvailableAtLeast: guard.requireAvailableAtLeast,
      }),
    },
    { role: 'entry', item: entryItem(tableName, entry) },
  ];
  const payment = paymentItem(tableName, entry);
  if (payment) parts.push({ role: 'payment', item: payment });
  return parts;
}

import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { type PostingEntry, signedAmount } from '../../domain/accounts/model';
import { isCreditDirection } from '../../domain/intake/model';
import type { AccountChange } from '../../domain/journal/model';
import type { EntryGuard } from '../../domain/movements/guard';
import { type IntakeRoutes, NO_INTAKE } from '../../domain/movements/intake';
import type { PostingRejection } from '../../domain/movements/rejections';
import { newEntryItems, paymentItem } from '../accounts/entries';
import { toAccountRecord } from '../accounts/items';
import { gateAsAccount, intakeItems } from '../intake/items';
import { accountChangeItem } from './account-change';
import { legChange } from './legs';

type PostingRole = 'account' | 'entry' | 'pointer' | 'payment' | 'gate' | 'pending';

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
 * when given; a credit into a deferred account named in `intake`, its gate and pending credit
 * instead of the change, entry and pointer (docs/contract.md §24).
 */
export function postingItems(
  tableName: string,
  entry: PostingEntry,
  guard: EntryGuard,
  intake: IntakeRoutes = NO_INTAKE,
): { role: PostingRole; item: TransactWriteItem }[] {
  const payment = paymentItem(tableName, entry);
  const paid = payment ? [{ role: 'payment' as const, item: payment }] : [];
  const shards = intake.get(entry.accountId);
  if (shards !== undefined && isCreditDirection(entry)) {
    const { gate, pending } = intakeItems(tableName, entry, guard, shards);
    return [{ role: 'gate', item: gate }, { role: 'pending', item: pending }, ...paid];
  }
  const change = postingChange(entry);
  const [listed, pointer] = newEntryItems(tableName, entry);
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
    ...paid,
  ];
}

/** The refusal of a cancelled posting after its claim: the account first, then the paymentId. */
export function postingRejection(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): PostingRejection | undefined {
  if (failed.has('gate')) {
    const gate = failed.get('gate');
    return {
      kind: 'account_rejected',
      account: gate ? gateAsAccount(gate) : undefined,
      viaGate: true,
    };
  }
  if (failed.has('account')) {
    const account = failed.get('account');
    return { kind: 'account_rejected', account: account ? toAccountRecord(account) : undefined };
  }
  if (failed.has('payment')) return { kind: 'payment_id_taken' };
  return undefined;
}

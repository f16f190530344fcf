import type { DynamoDBClient, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import {
  type AccountRecord,
  type IdempotencyRecord,
  type LedgerEntry,
  type PostingEntry,
  TRANSACTION_TYPES,
} from '../core/model';
import type { EntryGuard, IdempotencyClaim, WriteResult } from '../core/ports';
import { accountChangeItem } from './account-change';
import { putNew, toAttributes } from './attributes';
import { keys, TTL_ATTRIBUTE } from './keys';
import { type RetryPolicy, type TransactPart, transactWithRetry } from './transact';

/** Builders for the items each transaction writes; conditions are named after what they guard. */

/** The claim is free when no record exists or the stored one has expired (TTL deletes lazily). */
export const CLAIM_FREE = `attribute_not_exists(pk) OR #expiresAt < :now`;

export function claimItem(tableName: string, claim: IdempotencyClaim): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({
        ...keys.idempotency(claim.scopeId),
        fingerprint: claim.fingerprint,
        statusCode: claim.response.statusCode,
        body: claim.response.body,
        [TTL_ATTRIBUTE]: claim.expiresAt,
      }),
      ConditionExpression: CLAIM_FREE,
      ExpressionAttributeNames: { '#expiresAt': TTL_ATTRIBUTE },
      ExpressionAttributeValues: toAttributes({ ':now': claim.nowSeconds }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

export function newAccountItem(tableName: string, account: AccountRecord): TransactWriteItem {
  return putNew(tableName, { ...keys.account(account.id), kind: 'account', ...account });
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

export function toIdempotencyRecord(item: Record<string, unknown>): IdempotencyRecord {
  return {
    fingerprint: String(item.fingerprint),
    statusCode: Number(item.statusCode),
    body: String(item.body),
    expiresAt: Number(item[TTL_ATTRIBUTE]),
  };
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
 * The parts every posting (credit, debit, export fee) writes: the guarded account change,
 * which moves `balance` and `available` alike, the ledger entry, the paymentId when given.
 */
export function postingItems(
  tableName: string,
  entry: PostingEntry,
  guard: EntryGuard,
): { role: 'account' | 'entry' | 'payment'; item: TransactWriteItem }[] {
  const delta = entry.type === 'credit' ? entry.amount : -entry.amount;
  const parts: { role: 'account' | 'entry' | 'payment'; item: TransactWriteItem }[] = [
    {
      role: 'account',
      item: accountChangeItem(tableName, {
        accountId: entry.accountId,
        at: entry.createdAt,
        balanceDelta: delta,
        availableDelta: delta,
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

/** The stored idempotency record when the claim is what cancelled a command's transaction. */
export function claimedFailure(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): { kind: 'claimed'; record: IdempotencyRecord } | undefined {
  const record = failed.get('claim');
  return record ? { kind: 'claimed', record: toIdempotencyRecord(record) } : undefined;
}

/**
 * The facts of a cancelled command in precedence order: an existing claim (replay or reuse),
 * then the account guard, then the paymentId. Undefined when none of these failed.
 */
function commandFailure(
  failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
): WriteResult | undefined {
  const claim = claimedFailure(failed);
  if (claim) return claim;
  if (failed.has('account')) {
    const account = failed.get('account');
    return { kind: 'account_rejected', account: account ? toAccountRecord(account) : undefined };
  }
  if (failed.has('payment')) return { kind: 'payment_id_taken' };
  return undefined;
}

/**
 * Runs a command's transaction and reports its facts: committed, or the failure
 * `commandFailure` names, or what `otherFailure` makes of the rest (e.g. a moved task).
 */
export async function writeCommand<Role extends string, Other = never>(
  client: DynamoDBClient,
  parts: readonly TransactPart<Role>[],
  retry: RetryPolicy,
  otherFailure: (
    failed: ReadonlyMap<Role, Record<string, unknown> | undefined>,
  ) => Other | undefined = () => undefined,
): Promise<WriteResult | Other> {
  const outcome = await transactWithRetry(client, parts, retry);
  if (outcome.kind === 'committed') return outcome;
  const failure = commandFailure(outcome.failed) ?? otherFailure(outcome.failed);
  if (failure === undefined) throw unexpectedFailure(outcome.failed);
  return failure;
}

export function unexpectedFailure(failed: ReadonlyMap<string, unknown>): Error {
  return new Error(`unexpected failed condition on ${[...failed.keys()].join(', ')}`);
}

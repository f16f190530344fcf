import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AccountRecord } from '../../domain/accounts/model';
import { toAccountRecord } from '../accounts/items';
import {
  type Contended,
  type RetryPolicy,
  type TransactOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { gateAsAccount } from './intake-items';

type Failed = ReadonlyMap<string, Record<string, unknown> | undefined>;

/**
 * THE reading of a cancelled money transaction (docs/architecture.md "One write path"): every
 * failed condition of the composer's roles (`compose.ts`), by what it means, and the rest (the
 * claims, the inbox, sequences, a hold, a reversal's original) by role, as they stood.
 */
export interface Cancellation {
  /** Accounts whose guard failed, as they stood (ALL_OLD; undefined: missing). */
  readonly accounts: ReadonlyMap<string, AccountRecord | undefined>;
  /** Accounts whose intake gate refused (§24), as the gate's copy of them. */
  readonly gates: ReadonlyMap<string, AccountRecord | undefined>;
  /** Movements whose paymentId item was taken. */
  readonly payments: ReadonlySet<number>;
  /** Movements whose entry, pointer or pending item failed: written by someone else. */
  readonly taken: ReadonlySet<number>;
  /** Every failed role, the composer's too. */
  readonly failed: Failed;
}

export function decodeCancellation(failed: Failed): Cancellation {
  const accounts = new Map<string, AccountRecord | undefined>();
  const gates = new Map<string, AccountRecord | undefined>();
  const payments = new Set<number>();
  const taken = new Set<number>();
  for (const [role, old] of failed) {
    const [kind, id = ''] = role.split(/:(.*)/s);
    if (kind === 'account' && id !== '') {
      accounts.set(id, old ? toAccountRecord(old) : undefined);
    } else if (kind === 'gate' && id.includes(':')) {
      const accountId = id.slice(0, id.lastIndexOf(':'));
      gates.set(accountId, old ? gateAsAccount(old) : undefined);
    } else if (kind === 'payment' && id !== '') payments.add(Number(id));
    else if ((kind === 'entry' || kind === 'pointer' || kind === 'pending') && id !== '') {
      taken.add(Number(id));
    }
  }
  return { accounts, gates, payments, taken, failed };
}

/** How a money transaction ended: committed or cancelled, decoded. */
export type MoneyOutcome =
  | { readonly kind: 'committed' }
  | { readonly kind: 'cancelled'; readonly cancellation: Cancellation };

/**
 * Commits a composed money transaction (`compose.ts`) and decodes its cancellation, the one
 * way; `contended` only when the options ask for it (a write built from a read).
 */
export function commitMoney(
  client: DynamoDBClient,
  parts: readonly TransactPart<string>[],
  retry: RetryPolicy,
): Promise<MoneyOutcome>;
export function commitMoney(
  client: DynamoDBClient,
  parts: readonly TransactPart<string>[],
  retry: RetryPolicy,
  options: TransactOptions,
): Promise<MoneyOutcome | Contended>;
export async function commitMoney(
  client: DynamoDBClient,
  parts: readonly TransactPart<string>[],
  retry: RetryPolicy,
  options: TransactOptions = {},
): Promise<MoneyOutcome | Contended> {
  const outcome = await transactWithRetry(client, parts, retry, options);
  if (outcome.kind !== 'conditions_failed') return outcome;
  return { kind: 'cancelled', cancellation: decodeCancellation(outcome.failed) };
}

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { WriteResult } from '../../domain/accounts/port';
import { claimedFailure, unexpectedFailure } from '../idempotency/command';
import { type RetryPolicy, type TransactPart, transactWithRetry } from '../table/transact';
import { toAccountRecord } from './items';

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

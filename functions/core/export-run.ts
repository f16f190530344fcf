import type { LedgerEntry } from './model';
import { type ExecutionStatus, type ExportJob, isTerminal } from './tasks';

/**
 * What the export worker needs from storage (docs/contract.md §12): one claim per execution so
 * that duplicate jobs run it once, and the account's entries up to the snapshot, page by page.
 */

export type RunClaim =
  /** This worker runs the execution; its callbacks continue after `lastSequence`. */
  | { readonly kind: 'claimed'; readonly lastSequence: number }
  | { readonly kind: 'unknown_execution' }
  /** SUCCEEDED, FAILED, TIMED_OUT or CANCELED: a duplicate job has nothing left to do. */
  | { readonly kind: 'finished'; readonly status: ExecutionStatus }
  | { readonly kind: 'past_deadline'; readonly deadline: string }
  /** Another worker holds the execution until then; its own job copy covers a crash. */
  | { readonly kind: 'leased'; readonly leaseUntil: string };

/** The stored facts a refused claim is explained from. */
export interface ClaimedExecutionFacts {
  readonly status: ExecutionStatus;
  readonly deadline?: string;
  readonly leaseUntil?: string;
}

/** Why a claim was refused, in precedence order: gone, finished, overdue, leased. */
export function refusedClaim(
  facts: ClaimedExecutionFacts | undefined,
  now: Date,
): Exclude<RunClaim, { kind: 'claimed' }> {
  if (!facts) return { kind: 'unknown_execution' };
  if (isTerminal(facts.status)) return { kind: 'finished', status: facts.status };
  if (facts.deadline !== undefined && facts.deadline <= now.toISOString()) {
    return { kind: 'past_deadline', deadline: facts.deadline };
  }
  return { kind: 'leased', leaseUntil: facts.leaseUntil ?? now.toISOString() };
}

export interface ExportRunPort {
  /**
   * One conditional write: the execution exists, is not terminal, is before its deadline and
   * holds no live lease → it is leased to this run until `leaseUntil`.
   */
  claimRun(job: ExportJob, now: Date, leaseUntil: Date): Promise<RunClaim>;
  /** The account's entries created at or before `upTo`, oldest first, strongly consistent. */
  entryPages(accountId: string, upTo: string): AsyncIterable<readonly LedgerEntry[]>;
}

/** What a SUCCEEDED callback carries in `data.result` and the execution then keeps. */
export interface ExportResult {
  /** `exports/<taskId>/<executionId>.<csv|jsonl>` (docs/contract.md §14 "Exports"). */
  readonly key: string;
  /** Data rows; the CSV header is not one. */
  readonly rows: number;
  readonly bytes: number;
  /** Lowercase hex SHA-256 of the object's bytes. */
  readonly sha256: string;
}

import { isTerminal } from './model';
import type { ClaimedExecutionFacts, RunClaim } from './port';

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

import { RECEIVES_EXHAUSTED } from '../../functions/contract/events';
import { eventId } from '../events';
import type { Observed } from '../observe';
import type { RunRecord } from '../runner';
import { checkAnswers } from './answers';
import { type DeadLetter, type Expected, expectations } from './expect';
import { type Finding, replayJournals } from './journal';

export type { Finding } from './journal';

/**
 * A dead letter whose receives ran out (§6): the consumer's `receives_exhausted`, or one SQS
 * moved itself without `error_code` (observe.ts names it so too).
 */
export const TRANSIENT = RECEIVES_EXHAUSTED;

/**
 * Events SQS dead-lettered after `maxReceiveCount` receives (transient failures, §6): allowed by
 * the contract, so not a finding; each was applied at most once. Reported beside the findings.
 */
export function transientDeadLetters(record: RunRecord, observed: Observed): string[] {
  return [...(observed.deadLetters ?? [])]
    .filter(([id, code]) => id.startsWith(record.run) && code === TRANSIENT)
    .map(([id]) => id);
}

/**
 * The soak's checker: the run's answers and the stack's final state against the sequential
 * model replayed in journal order (docs/reliability.md "What the checker demands").
 */
export function check(record: RunRecord, observed: Observed): Finding[] {
  const findings: Finding[] = [];
  const { plan, executed } = record;
  const dead = observed.deadLetters;
  const deadAmount = (amount: number): DeadLetter => {
    const code = dead?.get(`${record.run}-ev-${amount}`);
    return code === undefined ? undefined : code === TRANSIENT ? 'transient' : 'permanent';
  };
  const expected = expectations(plan, executed, deadAmount);
  const replayed = replayJournals(plan, observed.journals, expected, findings);
  const effective = expected.filter((x) => !x.optional || replayed.matched.has(x));
  checkAnswers(plan, executed, observed.journals, replayed, findings);
  const add = (check: string, detail: string, operations: number[] = []) =>
    findings.push({ check, detail, operations });
  observed.accounts.forEach((account, i) => {
    const journal = observed.journals[i] ?? [];
    const last = journal[journal.length - 1];
    if (account.version !== journal.length)
      add(
        'journal_gapless',
        `account ${i}: version ${account.version}, journal of ${journal.length}`,
      );
    if (
      (last?.balanceAfter ?? 0) !== account.balance ||
      (last?.availableAfter ?? 0) !== account.available
    ) {
      add(
        'balances',
        `account ${i}: ${account.balance}/${account.available}, its journal ends at ${last?.balanceAfter}/${last?.availableAfter}`,
      );
    }
    const mine = effective.filter((x) => x.account === i);
    const balance = mine.reduce((s, x) => s + x.balanceDelta, 0);
    const available = mine.reduce((s, x) => s + x.availableDelta, 0);
    if (balance !== account.balance || available !== account.available) {
      add(
        'balances',
        `account ${i}: ${account.balance}/${account.available}, the model ${balance}/${available}`,
      );
    }
    if ((observed.pending[i] ?? 0) > 0)
      add('pending_posted', `account ${i}: ${observed.pending[i]} credit(s) still pending`);
    if (account.status === 'closed' && (account.balance !== 0 || account.available !== 0)) {
      add('closing', `account ${i} is closed with ${account.balance}/${account.available}`);
    }
    const s = observed.statements[i];
    if (
      s &&
      (s.closingBalance !== s.openingBalance + s.totalCredits - s.totalDebits ||
        s.closingBalance !== account.balance ||
        s.openingBalance !== 0)
    ) {
      add(
        'statements',
        `account ${i}: opening ${s.openingBalance} + credits ${s.totalCredits} − debits ${s.totalDebits} vs closing ${s.closingBalance}, balance ${account.balance}`,
      );
    }
  });
  checkConservation(record, observed, effective, add);
  checkVerified(record, observed, add);
  checkMonitors(record, observed, add);
  if (dead) {
    for (const e of executed) {
      if (e.op.kind !== 'events') continue;
      for (const item of e.op.items) {
        const code = dead.get(eventId(record.run, item));
        if (
          code !== undefined &&
          code !== TRANSIENT &&
          !(item.type === 'debit' && code === 'insufficient_funds')
        ) {
          add(
            'dead_letters',
            `event ${eventId(record.run, item)} (${item.type} ${item.amount}) dead-lettered as ${code}`,
            [e.index],
          );
        }
      }
    }
  }
  return findings;
}

/**
 * Money is conserved in each currency on its own: the balances of a currency's accounts sum to
 * the money that came in and went out in it (credits, debits, captures, reversals); transfers,
 * ledger legs and exchanges only move it. An exchange's legs balance per currency, so one
 * applied with legs that balance only across currencies is a finding here (and in `answers`).
 */
function checkConservation(
  record: RunRecord,
  observed: Observed,
  effective: readonly Expected[],
  add: (check: string, detail: string) => void,
): void {
  const currencyOf = (account: number) => record.plan.accounts[account]?.currency ?? '?';
  const sums = new Map<string, { balances: number; external: number }>();
  const sum = (currency: string) => {
    const s = sums.get(currency) ?? { balances: 0, external: 0 };
    sums.set(currency, s);
    return s;
  };
  observed.accounts.forEach((a, i) => {
    sum(currencyOf(i)).balances += a.balance;
  });
  for (const x of effective) {
    if (EXTERNAL.has(x.kind)) sum(currencyOf(x.account)).external += x.balanceDelta;
  }
  for (const [currency, s] of [...sums].sort(([a], [b]) => a.localeCompare(b))) {
    if (s.balances !== s.external)
      add(
        'conservation',
        `${currency}: Σ balances ${s.balances}, Σ money in and out ${s.external}`,
      );
  }
}

const EXTERNAL = new Set(['credit', 'debit', 'capture', 'reversal']);

/**
 * The project's journal verifier (functions/domain/journal/verify.ts, what `npm run cli --
 * verify` runs) over every account's table items, when the soak owns the stack: each break is
 * a finding, and so is a verifier that read another number of records than the journal route
 * gave. Skipped (undefined) on a foreign stack (`--url`).
 */
function checkVerified(
  record: RunRecord,
  observed: Observed,
  add: (check: string, detail: string) => void,
): void {
  if (observed.verified === undefined) return;
  record.accounts.forEach((_, i) => {
    const v = observed.verified?.[i];
    const journal = observed.journals[i]?.length ?? 0;
    if (!v) add('journal_verify', `account ${i} was not verified`);
    else if (v.broken)
      add(
        'journal_verify',
        `account ${i} sequence ${v.broken.sequence} (${v.broken.problem}): ${v.broken.detail}`,
      );
    else if (v.records !== journal)
      add(
        'journal_verify',
        `account ${i}: verify read ${v.records} record(s), the journal route ${journal}`,
      );
  });
}

function checkMonitors(
  record: RunRecord,
  observed: Observed,
  add: (check: string, detail: string) => void,
): void {
  record.plan.monitors.forEach((spec, i) => {
    const truth = (v: { balanceAfter: number; availableAfter: number }) => {
      const value = spec.field === 'balance' ? v.balanceAfter : v.availableAfter;
      return spec.operator === 'gte' ? value >= spec.value : value < spec.value;
    };
    const journal = observed.journals[spec.account] ?? [];
    const flips: number[] = [];
    let state = truth({ balanceAfter: 0, availableAfter: 0 });
    for (const r of journal) {
      if (truth(r) !== state) flips.push(r.sequence);
      state = truth(r);
    }
    const shown = observed.monitors[i]?.state;
    if (shown !== String(state))
      add(
        'monitors',
        `monitor ${i} on account ${spec.account} shows ${shown}, the journal says ${state}`,
      );
    const fired = observed.monitorEvents?.get(record.monitors[i] ?? '');
    if (observed.monitorEvents && JSON.stringify(fired ?? []) !== JSON.stringify(flips)) {
      add(
        'monitors',
        `monitor ${i} on account ${spec.account} fired at ${JSON.stringify(fired ?? [])}, crossings at ${JSON.stringify(flips)}`,
      );
    }
  });
}

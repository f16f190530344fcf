import { RECEIVES_EXHAUSTED } from '../../functions/contract/events';
import { eventId } from '../events';
import type { Observed } from '../observe';
import type { RunRecord } from '../runner';
import { checkAnswers } from './answers';
import { type DeadLetter, expectations } from './expect';
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
  const total = observed.accounts.reduce((s, a) => s + a.balance, 0);
  const external = effective
    .filter((x) => ['credit', 'debit', 'capture', 'reversal'].includes(x.kind))
    .reduce((s, x) => s + x.balanceDelta, 0);
  if (total !== external)
    add('conservation', `EUR: Σ balances ${total}, Σ money in and out ${external}`);
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

import { checkChain } from '../../functions/domain/journal/chain';
import type { JournalRecord } from '../../functions/domain/journal/model';
import type { Plan } from '../plan';
import { type Expected, eventKey, expectedId, recordKey } from './expect';

/** One thing the checker found wrong, with the operations (plan positions) it involves. */
export interface Finding {
  readonly check: string;
  readonly detail: string;
  readonly operations: readonly number[];
}

/** Each account's journal read against the model: record i ↔ the operation that wrote it. */
export interface Replayed {
  /** Per account, per sequence (index sequence − 1): the operation that wrote it, -1 unknown. */
  readonly writers: readonly (readonly number[])[];
  /** The expectations a record matched (an optional one counts only then). */
  readonly matched: ReadonlySet<Expected>;
}

const DRAWS = new Set(['debit', 'transfer_out', 'ledger_debit', 'hold_placed', 'reversal']);

/**
 * Replays every account's journal in commit order: the chain (versions 1..n, arithmetic, hashes:
 * what `verify` checks), each record matched to exactly one expected posting (nothing applied
 * twice, nothing answered and lost), and each draw legal where it committed — the model says
 * available plus the overdraft covered it at that point of the journal.
 */
export function replayJournals(
  plan: Plan,
  journals: readonly (readonly JournalRecord[])[],
  expected: readonly Expected[],
  findings: Finding[],
): Replayed {
  const open = new Map<string, Expected[]>();
  for (const x of expected) open.set(expectedId(x), [...(open.get(expectedId(x)) ?? []), x]);
  const writers: number[][] = [];
  const matched = new Set<Expected>();
  journals.forEach((records, account) => {
    const { breaks } = checkChain(records, undefined);
    for (const b of breaks) {
      findings.push({
        check: 'journal_chain',
        detail: `account ${account} sequence ${b.sequence}: ${b.problem} ${b.detail}`,
        operations: [],
      });
    }
    const overdraft = plan.accounts[account]?.overdraft ?? 0;
    const mine: number[] = [];
    for (const record of records) {
      const take = (key: string) => {
        const id = expectedId({
          account,
          key,
          kind: record.kind,
          balanceDelta: record.balanceDelta,
          availableDelta: record.availableDelta,
        });
        const list = open.get(id);
        const match = list?.shift();
        if (list && list.length === 0) open.delete(id);
        return match;
      };
      const match = take(recordKey(record)) ?? take(eventKey(record) ?? '-');
      mine.push(match?.index ?? -1);
      if (match) matched.add(match);
      if (!match) {
        findings.push({
          check: 'applied_once',
          detail: `account ${account} record ${record.sequence} (${record.kind} ${record.balanceDelta}/${record.availableDelta}, ${recordKey(record)}) was applied though no answer or event asked for it (or asked once)`,
          operations: [],
        });
      }
      if (
        DRAWS.has(record.kind) &&
        record.availableDelta < 0 &&
        record.availableAfter < -overdraft
      ) {
        findings.push({
          check: 'model_replay',
          detail: `account ${account} record ${record.sequence} (${record.kind} ${record.availableDelta}) left available at ${record.availableAfter}, below the overdraft limit ${overdraft}`,
          operations: match ? [match.index] : [],
        });
      }
    }
    writers.push(mine);
  });
  for (const list of open.values()) {
    for (const x of list.filter((x) => !x.optional)) {
      findings.push({
        check: 'applied_once',
        detail: `${x.kind} ${x.balanceDelta}/${x.availableDelta} on account ${x.account} (${x.key}) was answered or sent but never reached the journal`,
        operations: x.index >= 0 ? [x.index] : [],
      });
    }
  }
  return { writers, matched };
}

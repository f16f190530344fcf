import type { JournalRecord } from '../../functions/domain/journal/model';
import type { Answer } from '../client';
import type { Executed } from '../execute';
import type { BatchItem, Operation, Plan, Rate } from '../plan';
import type { Finding, Replayed } from './journal';

/**
 * Every refusal held against the model replayed in journal order. A request that raced others
 * has no single place in the order, but it was decided somewhere between its first send and its
 * final answer: the records of operations answered before it was sent lie before that place,
 * those of operations sent after its answer lie after. The refusal must be what the model
 * answers at SOME place in that window (e.g. `insufficient_funds`: available plus the overdraft
 * below the amount there). Any other answer than the codes an operation may give is a finding.
 */
type Item = Operation | BatchItem;
interface Draw {
  readonly account: number;
  readonly amount: number;
}

const kindOf = (item: Item) => ('op' in item ? item.op : item.kind);

/** Rates as `base/quote=rate, …` (absent: `none`), whatever order an echo gives their fields. */
const ratesText = (rates: unknown): string =>
  Array.isArray(rates)
    ? rates.map((r: Rate) => `${r.base}/${r.quote}=${r.rate}`).join(', ')
    : 'none';

/**
 * Why the model refuses a ledger transaction for its currencies (§35), from the plan alone: a
 * leg whose currency (its own, else the default) is not its account's is `currency_mismatch`;
 * legs whose debits and credits differ in some currency are `legs_unbalanced`.
 */
export function currencyRefusal(
  plan: Plan,
  op: Extract<Operation, { kind: 'ledger' }>,
): 'currency_mismatch' | 'legs_unbalanced' | undefined {
  const legCurrency = (leg: (typeof op.legs)[number]) => leg.currency ?? op.currency;
  if (op.legs.some((leg) => legCurrency(leg) !== plan.accounts[leg.account]?.currency))
    return 'currency_mismatch';
  const net = new Map<string | undefined, number>();
  for (const leg of op.legs) {
    const sign = leg.direction === 'debit' ? 1 : -1;
    net.set(legCurrency(leg), (net.get(legCurrency(leg)) ?? 0) + sign * leg.amount);
  }
  return [...net.values()].some((n) => n !== 0) ? 'legs_unbalanced' : undefined;
}

export function checkAnswers(
  plan: Plan,
  executed: readonly Executed[],
  journals: readonly (readonly JournalRecord[])[],
  replayed: Replayed,
  findings: Finding[],
): void {
  const byIndex = new Map(executed.map((e) => [e.index, e]));
  const answered = (e: Executed | undefined) => e?.answer;
  /** Sequences on `account` before / after which the decision of `a` must lie. */
  const window = (account: number, a: Answer): [number, number] => {
    const writers = replayed.writers[account] ?? [];
    const records = journals[account] ?? [];
    let lo = 0;
    let hi = records.length;
    writers.forEach((w, i) => {
      const other = answered(byIndex.get(w));
      const record = records[i];
      if (!other || !record) return;
      const posting = record.balanceDelta > 0 && plan.accounts[account]?.deferred === true;
      if (other.answered < a.sent && !posting) lo = Math.max(lo, i + 1);
      if (other.sent > a.answered) hi = Math.min(hi, i);
    });
    return [lo, Math.max(lo, hi)];
  };
  const values = (account: number, p: number) => {
    const record = journals[account]?.[p - 1];
    return { balance: record?.balanceAfter ?? 0, available: record?.availableAfter ?? 0 };
  };
  const somewhere = (
    account: number,
    a: Answer,
    holds: (v: { balance: number; available: number }) => boolean,
  ) => {
    const [lo, hi] = window(account, a);
    for (let p = lo; p <= hi; p++) if (holds(values(account, p))) return true;
    return false;
  };
  const short = (d: Draw, a: Answer) =>
    somewhere(
      d.account,
      a,
      (v) => v.available + (plan.accounts[d.account]?.overdraft ?? 0) < d.amount,
    );
  const closedBefore = (account: number, a: Answer, strict: boolean) =>
    executed.some(
      (e) =>
        e.op.kind === 'close' &&
        e.op.account === account &&
        e.answer?.status === 200 &&
        (strict ? e.answer.answered < a.sent : e.answer.sent < a.answered),
    );
  /**
   * Whether a period close of `account` that `covers` (given its `backdays`) committed before
   * `a` (strict) or somewhere in its window. A movement effective at `through` itself is in the
   * closed period (at or before, §26): `covers` is `b <= backdays` for movements, `b < backdays`
   * for an earlier close (the same `through` again answers 200).
   */
  const periodBefore = (
    account: number,
    covers: (closeBackdays: number) => boolean,
    a: Answer,
    strict: boolean,
    self?: number,
  ) =>
    executed.some(
      (e) =>
        e.index !== self &&
        e.op.kind === 'period' &&
        e.op.account === account &&
        covers(e.op.backdays) &&
        e.answer?.status === 200 &&
        (strict ? e.answer.answered < a.sent : e.answer.sent < a.answered),
    );
  const accountsOf = (item: Item): number[] => {
    if ('legs' in item) return item.legs.map((l) => l.account);
    if ('of' in item) {
      const original = byIndex.get(item.of)?.op;
      return original && 'account' in original ? [original.account] : [];
    }
    return [...('account' in item ? [item.account] : []), ...('to' in item ? [item.to] : [])];
  };
  const draws = (item: Item, e: Executed): Draw[] => {
    const kind = kindOf(item);
    if (kind === 'ledger' && 'legs' in item)
      return item.legs.filter((l) => l.direction === 'debit');
    if (
      (kind === 'debit' || kind === 'transfer' || kind === 'hold') &&
      'amount' in item &&
      'account' in item
    ) {
      return [{ account: item.account, amount: item.amount }];
    }
    if (kind === 'reverse' && 'of' in item) {
      const original = byIndex.get(item.of)?.op;
      return original?.kind === 'credit'
        ? [{ account: original.account, amount: item.amount }]
        : [];
    }
    void e;
    return [];
  };
  /** Whether the model, somewhere in the window, refuses `item` with `code`. */
  const explains = (item: Item, e: Executed, a: Answer, code: string | undefined): boolean => {
    const kind = kindOf(item);
    switch (code) {
      case 'insufficient_funds':
        return draws(item, e).some((d) => short(d, a));
      case 'account_closed':
        return accountsOf(item).some((account) => closedBefore(account, a, false));
      case 'period_closed':
        return (
          'backdays' in item &&
          item.backdays !== undefined &&
          'account' in item &&
          periodBefore(item.account, (b) => b <= (item.backdays ?? -1), a, false)
        );
      case 'account_not_empty':
        return (
          kind === 'close' &&
          'account' in item &&
          (plan.accounts[item.account]?.deferred === true ||
            somewhere(item.account, a, (v) => v.balance !== 0 || v.available !== 0))
        );
      case 'hold_expired': {
        const hold = 'hold' in item ? byIndex.get(item.hold)?.op : undefined;
        return hold?.kind === 'hold' && hold.short;
      }
      case 'hold_not_active': {
        if (!('hold' in item)) return false;
        const hold = byIndex.get(item.hold)?.op;
        const others = executed.some(
          (o) =>
            o.index !== e.index &&
            (o.op.kind === 'capture' || o.op.kind === 'void') &&
            o.op.hold === item.hold &&
            o.answer?.status === 200,
        );
        return others || (hold?.kind === 'hold' && hold.short);
      }
      case 'reversal_exceeds_original': {
        if (!('of' in item)) return false;
        const original = byIndex.get(item.of)?.op;
        const taken = executed
          .filter(
            (o) =>
              o.index !== e.index &&
              o.op.kind === 'reverse' &&
              o.op.of === item.of &&
              o.answer?.status === 201,
          )
          .reduce((s, o) => s + Number(o.answer?.body.amount), 0);
        const amount = original && 'amount' in original ? (original.amount ?? 0) : 0;
        return 'amount' in item && taken + (item.amount ?? 0) > amount;
      }
      case 'period_already_closed':
        return (
          'kind' in item &&
          item.kind === 'period' &&
          periodBefore(item.account, (b) => b < item.backdays, a, false, e.index)
        );
      case 'pending_credits':
        return (
          'kind' in item && item.kind === 'period' && plan.accounts[item.account]?.deferred === true
        );
      case 'currency_mismatch':
      case 'legs_unbalanced':
        return 'kind' in item && item.kind === 'ledger' && currencyRefusal(plan, item) === code;
      default:
        return false;
    }
  };
  /** An applied item that the model must have refused: a close or a period close came first. */
  const mustHaveRefused = (item: Item, a: Answer): string | undefined => {
    const currencies = 'kind' in item && item.kind === 'ledger' && currencyRefusal(plan, item);
    if (currencies) return currencies;
    // Closing a closed account answers the account again (200).
    const closing = 'kind' in item && item.kind === 'close';
    if (!closing && accountsOf(item).some((account) => closedBefore(account, a, true)))
      return 'account_closed';
    const backdated =
      'kind' in item && (item.kind === 'credit' || item.kind === 'debit') ? item : undefined;
    if (
      backdated?.backdays !== undefined &&
      periodBefore(backdated.account, (b) => b <= (backdated.backdays ?? -1), a, true)
    ) {
      return 'period_closed';
    }
    return undefined;
  };
  const judge = (
    e: Executed,
    item: Item,
    a: Answer,
    status: number,
    code: string | undefined,
    body: unknown,
  ) => {
    const applied = status === 200 || status === 201;
    if (applied) {
      const refused = mustHaveRefused(item, a);
      if (refused) finding(e, `${kindOf(item)} was applied; the model answers ${refused}`);
      // The rates are recorded and echoed for audit (§35), as sent.
      const rates = 'kind' in item && item.kind === 'ledger' ? item.rates : undefined;
      if (rates && ratesText(a.body?.rates) !== ratesText(rates))
        finding(e, `ledger answered rates ${ratesText(a.body?.rates)}, sent ${ratesText(rates)}`);
      return;
    }
    if (!explains(item, e, a, code)) {
      finding(
        e,
        `${kindOf(item)} answered ${status} ${code ?? JSON.stringify(body)}; the model never answers that in its window`,
      );
    }
  };
  const finding = (e: Executed, detail: string) =>
    findings.push({
      check: 'answers',
      detail: `operation ${e.index}: ${detail}`,
      operations: [e.index],
    });
  for (const e of executed) {
    const a = e.answer;
    if (!a) continue;
    if (e.op.kind !== 'batch') {
      judge(e, e.op, a, a.status, a.code, a.body);
      continue;
    }
    if (e.op.mode === 'atomic' && a.status === 409 && a.code === 'batch_rejected') {
      const failed = Number(a.body.failedOperation);
      const item = e.op.items[failed];
      if (!item) finding(e, `batch_rejected names operation ${failed}, which it does not have`);
      else judge(e, item, a, 409, a.body.cause?.code, a.body.cause);
      continue;
    }
    if (a.status !== 200) {
      finding(e, `the batch answered ${a.status} ${a.code ?? JSON.stringify(a.body)}`);
      continue;
    }
    e.op.items.forEach((item, j) => {
      const result = a.body.results?.[j];
      if (!result) finding(e, `the batch has no result ${j}`);
      else judge(e, item, a, result.status, result.body?.code, result.body);
    });
  }
}

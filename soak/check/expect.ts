import type { JournalRecord } from '../../functions/domain/journal/model';
import type { Answer } from '../client';
import type { Executed } from '../execute';
import { type BatchItem, EVENT_AMOUNT_BASE, type Operation, type Plan } from '../plan';

/**
 * The sequential model's postings: what each answered operation must have written to the
 * journals (docs/contract.md §15), one expected record per account it changed, named the way
 * the record names it (entry, transfer, ledger transaction or hold id; a reversal by what it
 * reverses; an event by its amount, unique in the run). The journal replay (check-journal.ts)
 * matches records to these one to one: a record left over was applied without being asked for
 * (or twice), an expectation left over was answered but never applied.
 */
export interface Expected {
  readonly account: number;
  readonly key: string;
  readonly kind: string;
  readonly balanceDelta: number;
  readonly availableDelta: number;
  /** The operation (plan position) it belongs to; -1 for the sweeper's expiries. */
  readonly index: number;
  /** A credit into a deferred account: posted whenever the folder runs, not at the answer. */
  readonly deferredPosting: boolean;
  /**
   * An event SQS moved to the DLQ after its receives ran out (transient, §6): applied at most
   * once, perhaps not at all.
   */
  readonly optional?: true;
}

/** What `ledger-events-dlq` holds for an event: a permanent refusal, or receives run out. */
export type DeadLetter = 'permanent' | 'transient' | undefined;

const ok = (answer: Answer | undefined) =>
  answer !== undefined && answer.status >= 200 && answer.status < 300;

export function recordKey(record: JournalRecord): string {
  if (record.kind === 'reversal') return `rev:${record.reversalOf}`;
  return (
    record.transferId ?? record.ledgerTransactionId ?? record.holdId ?? record.entryId ?? 'none'
  );
}

/** The event amount a credit or debit record applied, when it is one. */
export const eventKey = (record: JournalRecord) =>
  Math.abs(record.balanceDelta) >= EVENT_AMOUNT_BASE
    ? `ev:${Math.abs(record.balanceDelta)}`
    : undefined;

export function expectations(
  plan: Plan,
  executed: readonly Executed[],
  deadLettered: (amount: number) => DeadLetter,
): Expected[] {
  const out: Expected[] = [];
  const byIndex = new Map(executed.map((e) => [e.index, e]));
  const push = (
    index: number,
    account: number,
    key: string,
    kind: string,
    db: number,
    da: number,
    optional = false,
  ) =>
    out.push({
      account,
      key,
      kind,
      balanceDelta: db,
      availableDelta: da,
      index,
      deferredPosting: db > 0 && plan.accounts[account]?.deferred === true,
      ...(optional ? { optional: true as const } : {}),
    });
  const movement = (
    index: number,
    item: BatchItem | Extract<Operation, { kind: 'credit' | 'debit' | 'transfer' }>,
    body: Answer['body'],
  ) => {
    const kind = 'op' in item ? item.op : item.kind;
    const id = String(body.id);
    if (kind === 'transfer' && 'to' in item) {
      push(index, item.account, id, 'transfer_out', -item.amount, -item.amount);
      push(index, item.to, id, 'transfer_in', item.amount, item.amount);
    } else {
      const sign = kind === 'credit' ? 1 : -1;
      push(index, item.account, id, kind, sign * item.amount, sign * item.amount);
    }
  };
  const settled = new Set<number>();
  for (const e of executed) {
    const { op, answer, index } = e;
    if (op.kind === 'events') {
      if (e.skipped) continue; // not sent: no SQS endpoint (`--url` without `--sqs`)
      for (const item of op.items) {
        const dead = deadLettered(item.amount);
        if (dead === 'permanent') continue;
        const delta = (item.type === 'credit' ? 1 : -1) * item.amount;
        push(
          index,
          item.account,
          `ev:${item.amount}`,
          item.type,
          delta,
          delta,
          dead === 'transient',
        );
      }
      continue;
    }
    if (!ok(answer) || answer === undefined) continue;
    const body = answer.body;
    switch (op.kind) {
      case 'credit':
      case 'debit':
      case 'transfer':
        movement(index, op, body);
        break;
      case 'ledger':
        for (const leg of op.legs) {
          const sign = leg.direction === 'credit' ? 1 : -1;
          push(
            index,
            leg.account,
            String(body.id),
            `ledger_${leg.direction}`,
            sign * leg.amount,
            sign * leg.amount,
          );
        }
        break;
      case 'hold':
        push(index, op.account, String(body.id), 'hold_placed', 0, -op.amount);
        break;
      case 'capture':
      case 'void': {
        const hold = byIndex.get(op.hold);
        if (hold?.op.kind !== 'hold') break;
        settled.add(op.hold);
        const captured = op.kind === 'capture' ? Number(body.capturedAmount) : 0;
        const kind = op.kind === 'capture' ? 'capture' : 'hold_released';
        push(
          index,
          hold.op.account,
          String(e.target?.id),
          kind,
          -captured,
          hold.op.amount - captured,
        );
        break;
      }
      case 'reverse': {
        const original = byIndex.get(op.of);
        if (original?.op.kind !== 'credit' && original?.op.kind !== 'debit') break;
        const sign = original.op.kind === 'credit' ? -1 : 1;
        const amount = Number(body.amount);
        push(
          index,
          original.op.account,
          `rev:${e.target?.id}`,
          'reversal',
          sign * amount,
          sign * amount,
        );
        break;
      }
      case 'batch':
        if (answer.status !== 200) break;
        op.items.forEach((item, j) => {
          const result = body.results?.[j];
          if (result && result.status === 201) movement(index, item, result.body);
        });
        break;
      case 'close':
      case 'period':
        break;
    }
  }
  // Short holds nobody settled expire: the sweeper releases them.
  for (const e of executed) {
    if (e.op.kind === 'hold' && e.op.short && ok(e.answer) && !settled.has(e.index)) {
      push(-1, e.op.account, String(e.answer?.body.id), 'hold_released', 0, e.op.amount);
    }
  }
  return out;
}

export const expectedId = (
  x: Pick<Expected, 'account' | 'key' | 'kind' | 'balanceDelta' | 'availableDelta'>,
) => `${x.account}|${x.key}|${x.kind}|${x.balanceDelta}|${x.availableDelta}`;

/**
 * The one sweeper for everything that falls due (docs/contract.md §11 "Sweeper"): active holds
 * at their expiry, running executions at their deadline. It reads due items shard by shard and
 * hands each to the handler registered for its `kind`. Settling is always one conditional
 * write, so a failed condition means another sweeper (or a capture, a void, a callback) got
 * there first: "already done", never an error. An item whose settle throws stays due and is
 * tried again on the next sweep.
 */

/** An item of the due index, as plain data: its `kind`, when it fell due and its attributes. */
export interface DueItem {
  readonly kind: string;
  /** Epoch milliseconds. */
  readonly dueAt: number;
  readonly attributes: Readonly<Record<string, unknown>>;
}

export interface DuePage {
  readonly items: readonly DueItem[];
  /** Opaque position after the last item; undefined on the last page. */
  readonly next: string | undefined;
}

export interface DuePort {
  /** Items of one shard due at or before `dueBy` (epoch ms), oldest first. */
  listDue(shard: number, dueBy: number, limit: number, after?: string): Promise<DuePage>;
}

export type SettleOutcome = 'settled' | 'already_done';

/** Settles one kind of due item; registered with the sweeper under that kind. */
export interface SweepHandler {
  readonly kind: string;
  settle(item: DueItem, now: Date): Promise<SettleOutcome>;
}

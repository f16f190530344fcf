/**
 * A pure reference model of the ledger-events consumer (docs/contract.md §6), record by record
 * in batch order: what each record does to balances, entries, paymentIds, the inbox and the
 * sequences, and which dead-letter code it gets. It knows nothing about lanes, batched
 * transactions or DynamoDB; test/faults/events-model.test.ts holds the consumer to it.
 *
 * Sequences are modelled as sets: the numbers of the events that applied, per (account,
 * source); `lastSequence` is the highest, the gaps are the numbers below it that never
 * applied. (The generator keeps numbers small, so the 1,000-gap cap never comes into play.)
 */

export interface ModelAccount {
  readonly currency: string;
  readonly balance: number;
  readonly available: number;
}

/** One record as the generator builds it; `body` is exactly what goes on the queue. */
export interface ModelRecord {
  readonly messageId: string;
  readonly body: string;
}

/** What a record's body means, when it is a well-formed event. */
export interface ModelEvent {
  readonly source: string;
  readonly id: string;
  readonly type: 'credit' | 'debit';
  readonly accountId: string;
  readonly amount: number;
  readonly currency: string;
  readonly paymentId?: string;
  readonly sequence?: number;
  /** Stands for the content hash: bodies that differ only in nothing else compare equal. */
  readonly content: string;
}

export type ModelOutcome =
  | { readonly kind: 'applied' }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'dead-lettered'; readonly code: string };

export interface EventsModelState {
  readonly accounts: ReadonlyMap<string, ModelAccount>;
  /** `source\0id` → content of the event that applied, or was refused for good, under it. */
  readonly inbox: ReadonlyMap<string, string>;
  /** `source\0id` → the recorded refusal's code (docs/contract.md §6): replayed, never re-judged. */
  readonly refusals: ReadonlyMap<string, string>;
  /** `account\0paymentId` of every applied event that had one. */
  readonly payments: ReadonlySet<string>;
  /** Applied entries per account: `type:amount`. */
  readonly entries: ReadonlyMap<string, readonly string[]>;
  /** `account\0source` → the sequence numbers that applied. */
  readonly sequences: ReadonlyMap<string, ReadonlySet<number>>;
}

export function initialEventsState(accounts: ReadonlyMap<string, ModelAccount>): EventsModelState {
  return {
    accounts,
    inbox: new Map(),
    refusals: new Map(),
    payments: new Set(),
    entries: new Map([...accounts.keys()].map((id) => [id, []])),
    sequences: new Map(),
  };
}

/** The dead-letter code a body gets before it reaches the ledger, if any. */
export type ParseModel = (body: string) => ModelEvent | { readonly code: string };

/** Applies one record; returns its outcome and the state after it. */
export function applyRecord(
  state: EventsModelState,
  body: string,
  parse: ParseModel,
): { outcome: ModelOutcome; state: EventsModelState } {
  const event = parse(body);
  const dead = (code: string) => ({ outcome: { kind: 'dead-lettered', code } as const, state });
  if ('code' in event) return dead(event.code);
  const inboxKey = `${event.source}\u0000${event.id}`;
  const seen = state.inbox.get(inboxKey);
  if (seen !== undefined) {
    if (seen !== event.content) return dead('id_conflict');
    const refused = state.refusals.get(inboxKey);
    return refused === undefined ? { outcome: { kind: 'duplicate' }, state } : dead(refused);
  }
  const account = state.accounts.get(event.accountId);
  if (!account) return dead('unknown_account');
  // A refusal from the ledger's state is recorded under the event id (§6); later copies replay it.
  const refuse = (code: string) => ({
    outcome: { kind: 'dead-lettered', code } as const,
    state: {
      ...state,
      inbox: new Map(state.inbox).set(inboxKey, event.content),
      refusals: new Map(state.refusals).set(inboxKey, code),
    },
  });
  if (account.currency !== event.currency) return refuse('currency_mismatch');
  if (event.type === 'debit' && account.available < event.amount) {
    return refuse('insufficient_funds');
  }
  const paymentKey = `${event.accountId}\u0000${event.paymentId}`;
  if (event.paymentId !== undefined && state.payments.has(paymentKey)) {
    return refuse('payment_id_conflict');
  }
  const delta = event.type === 'credit' ? event.amount : -event.amount;
  const accounts = new Map(state.accounts);
  accounts.set(event.accountId, {
    ...account,
    balance: account.balance + delta,
    available: account.available + delta,
  });
  const inbox = new Map(state.inbox).set(inboxKey, event.content);
  const payments = new Set(state.payments);
  if (event.paymentId !== undefined) payments.add(paymentKey);
  const entries = new Map(state.entries);
  entries.set(event.accountId, [
    ...(entries.get(event.accountId) ?? []),
    `${event.type}:${event.amount}`,
  ]);
  const sequences = new Map(state.sequences);
  if (event.sequence !== undefined) {
    const key = `${event.accountId}\u0000${event.source}`;
    sequences.set(key, new Set([...(sequences.get(key) ?? []), event.sequence]));
  }
  return {
    outcome: { kind: 'applied' },
    state: { accounts, inbox, refusals: state.refusals, payments, entries, sequences },
  };
}

/** `lastSequence` and the gaps the model expects for one (account, source). */
export function sequenceView(applied: ReadonlySet<number>): {
  lastSequence: number;
  gaps: number[];
} {
  const lastSequence = Math.max(0, ...applied);
  const gaps: number[] = [];
  for (let n = 1; n < lastSequence; n++) if (!applied.has(n)) gaps.push(n);
  return { lastSequence, gaps };
}

/**
 * The journal (docs/contract.md §15): every change of an account's `balance` or `available`,
 * numbered per account 1, 2, 3, … in commit order. The writer of a change describes it on the
 * account item itself (`lastChanges`, beside `version`); the projector turns those
 * descriptions into records, reading the after-values backwards from the account as written.
 */

/**
 * What a change did: the entry's `type` where it has an entry, else what happened to a hold
 * (`hold_released` for a void and an expiry); ledger legs and reversals (§16–§17) carry their
 * `ledgerTransactionId` / `reversalOf`.
 */
export const JOURNAL_KINDS = [
  'credit',
  'debit',
  'transfer_out',
  'transfer_in',
  'capture',
  'hold_placed',
  'hold_released',
  'ledger_debit',
  'ledger_credit',
  'reversal',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/**
 * Most changes one account update carries: a journal record and its as-of item each, plus the
 * head and the reconciler's marker, fit the 100 items of one TransactWriteItems (2 × 49 + 2).
 */
export const MAX_CHANGES_PER_UPDATE = 49;

/** The ids of what changed; never its metadata (a consumer that needs it reads the entry). */
export interface ChangeIds {
  readonly entryId?: string;
  readonly holdId?: string;
  readonly transferId?: string;
  readonly ledgerTransactionId?: string;
  readonly reversalOf?: string;
  /**
   * A change with an entry: when the entry counts in the books (docs/contract.md §26). The
   * journal stays in commit order; this says where the entry sits in effective time.
   */
  readonly effectiveAt?: string;
  /**
   * A deferred credit posted by the folder (docs/contract.md §24): when intake accepted it (its
   * pending item's commit). Absent on every other change, so their records hash as before.
   */
  readonly acceptedAt?: string;
}

export const CHANGE_ID_FIELDS = [
  'entryId',
  'holdId',
  'transferId',
  'ledgerTransactionId',
  'reversalOf',
  'effectiveAt',
  'acceptedAt',
] as const satisfies readonly (keyof ChangeIds)[];

/**
 * One change as its writer describes it, in the same update that applies it: the descriptor
 * the projector reads from `lastChanges` (small on purpose: it rides on the account item).
 */
export interface AccountChange extends ChangeIds {
  readonly kind: JournalKind;
  readonly balanceDelta: number;
  readonly availableDelta: number;
  /** The writer's clock, ISO 8601: DynamoDB has no server clock to read. */
  readonly at: string;
}

/** One record of an account's journal (docs/contract.md §15). */
export interface JournalRecord extends ChangeIds {
  readonly accountId: string;
  readonly sequence: number;
  readonly kind: JournalKind;
  readonly balanceDelta: number;
  readonly availableDelta: number;
  readonly balanceAfter: number;
  readonly availableAfter: number;
  /** max(the writer's `at`, the previous record's committedAt): never decreases. */
  readonly committedAt: string;
  /**
   * Record 1 of an account older than the journal: its before-values are whatever the account
   * held at the upgrade, not zeros, and the journal knows nothing before it.
   */
  readonly opening?: true;
  /**
   * hex SHA-256 over the previous record's hash and this record without `hash`, RFC 8785
   * canonical JSON (docs/contract.md §27; `chain.ts`). Absent on records written before the
   * chain existed.
   */
  readonly hash?: string;
  /** The first hashed record of the journal: it links to 64 zeros, not to a previous hash. */
  readonly chainStart?: true;
}

/** Where an account's journal stands: its last record. */
export interface JournalHead {
  readonly accountId: string;
  readonly lastSequence: number;
  readonly balanceAfter: number;
  readonly availableAfter: number;
  readonly committedAt: string;
  /** The last record's hash, the link of the next one; absent before the chain existed. */
  readonly hash?: string;
}

/** The account as one update left it: what the table's stream carries. */
export interface AccountImage {
  readonly accountId: string;
  readonly version: number;
  readonly balance: number;
  readonly available: number;
  /** The changes of that update, in order; the last one is `version`. */
  readonly changes: readonly AccountChange[];
  /** Created with the journal: record 1 starts from zeros. Else record 1 is `opening`. */
  readonly journalFromCreation: boolean;
}

/** The sequences an image's changes get: `version − n + 1 … version`. */
export const firstSequenceOf = (image: AccountImage): number =>
  image.version - image.changes.length + 1;

const later = (a: string, b: string): string => (Date.parse(a) >= Date.parse(b) ? a : b);

/**
 * The records of one account update, numbered `version − n + 1 … version`: the after-values
 * read backwards from the image (the last change ends at the image's values), `committedAt`
 * never before the previous record's. `previous` is the head the records continue, absent for
 * an account's first records.
 */
export function recordsOf(image: AccountImage, previous: JournalHead | undefined): JournalRecord[] {
  const first = firstSequenceOf(image);
  const after: { balance: number; available: number }[] = [];
  let balance = image.balance;
  let available = image.available;
  for (let i = image.changes.length - 1; i >= 0; i--) {
    after[i] = { balance, available };
    const change = image.changes[i];
    if (!change) continue;
    balance -= change.balanceDelta;
    available -= change.availableDelta;
  }
  const records: JournalRecord[] = [];
  let committedAt = previous?.committedAt;
  image.changes.forEach((change, i) => {
    const values = after[i] ?? { balance: image.balance, available: image.available };
    committedAt = committedAt === undefined ? change.at : later(change.at, committedAt);
    const sequence = first + i;
    records.push({
      accountId: image.accountId,
      sequence,
      kind: change.kind,
      balanceDelta: change.balanceDelta,
      availableDelta: change.availableDelta,
      balanceAfter: values.balance,
      availableAfter: values.available,
      committedAt,
      ...(sequence === 1 && !image.journalFromCreation ? { opening: true as const } : {}),
      ...idsOf(change),
    });
  });
  return records;
}

function idsOf(change: ChangeIds): ChangeIds {
  const ids: Record<string, string> = {};
  for (const field of CHANGE_ID_FIELDS) {
    const value = change[field];
    if (value !== undefined) ids[field] = value;
  }
  return ids;
}

/** The head after `records` (the last of them). */
export function headAfter(records: readonly JournalRecord[]): JournalHead | undefined {
  const last = records.at(-1);
  if (!last) return undefined;
  return {
    accountId: last.accountId,
    lastSequence: last.sequence,
    balanceAfter: last.balanceAfter,
    availableAfter: last.availableAfter,
    committedAt: last.committedAt,
    ...(last.hash === undefined ? {} : { hash: last.hash }),
  };
}

/** The values before a record: what the account held just before it committed. */
export const valuesBefore = (record: JournalRecord) => ({
  balance: record.balanceAfter - record.balanceDelta,
  available: record.availableAfter - record.availableDelta,
});

/** What one record of the table's stream means to the projector. */
export type StreamChange =
  | { readonly kind: 'image'; readonly image: AccountImage }
  /** An account item whose changes do not read as the builder writes them: our bug. */
  | { readonly kind: 'malformed'; readonly accountId: string; readonly reason: string }
  /** An account created, or its metadata changed: the search indexer re-reads it (§34). */
  | { readonly kind: 'account'; readonly accountId: string }
  /** Anything else on the stream (other items, account items without changes, deletes). */
  | { readonly kind: 'other' };

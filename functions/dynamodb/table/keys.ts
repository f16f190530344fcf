import { padSequence } from '../../contract/journal';

/**
 * Single-table key schema. Every item has string `pk`/`sk`; an account and its ledger entries
 * share a partition so one Query lists them newest first. An account's journal has a partition
 * of its own (`JOURNAL#<accountId>`), so the projector never writes into the account's.
 *
 * Items of ledger depth (docs/contract.md §16, §17; docs/architecture.md "Single-table keys"):
 * - entry (`ACCOUNT#<accountId>` / `ENTRY#<createdAt>#<entryId>`): `{ kind: 'entry', id,
 *   accountId, type, amount (unsigned), currency, origin, createdAt, reference?, paymentId?,
 *   transferId?, counterpartyAccountId?, holdId?, ledgerTransactionId?, reversalOf?: { kind,
 *   id }, reversalId?, direction? (reversals), metadata?, reversedAmount? }`. `type` gives the
 *   sign: credit, transfer_in, ledger_credit and a reversal with `direction: credit` add to the
 *   balance, the rest subtract. Σ signed amounts = the account's balance.
 * - entry pointer (`ENTRY_ID#<entryId>` / `ENTRY_ID`): written with every new entry, `{ kind:
 *   'entry-pointer', id, accountId, type, amount, currency, createdAt, reversedAmount? }`; finds
 *   the entry by id alone (reversals) and holds the guard of its reversals, mirrored onto the
 *   entry. Entries from before ledger depth have none (a bounded Query finds them).
 * - ledger transaction (`LEDGER_TRANSACTION#<id>` / `LEDGER_TRANSACTION`): `{ kind:
 *   'ledger-transaction', id, ownerId, origin, currency, legs: [{ accountId, direction, amount,
 *   entryId }], reference?, paymentId?, metadata?, createdAt, reversedAmount? }`; its entries
 *   (`ledger_debit` / `ledger_credit`, and the `reversal`s of it) carry `ledgerTransactionId`,
 *   so Σ of its entries' signed amounts is 0. A transfer's record and entries alike with
 *   `transferId` (its reversals' entries too).
 * - account: `overdraftLimit`, `spendable` (= available + overdraftLimit), `status`
 *   (`open` | `closed`, absent = open), `closedAt`; `version` and `lastChanges` (§15) count and
 *   describe every change of balance or available, ledger legs and reversals included
 *   (kind = the entry's type, with entryId, transferId?, ledgerTransactionId?, reversalOf =
 *   the reversed original's id); closing changes neither.
 */

/** TTL attribute (epoch seconds) on every record that expires; enabled on the table. */
export const TTL_ATTRIBUTE = 'expiresAt';

export type ItemKey = { pk: string; sk: string };

export const ENTRY_SK_PREFIX = 'ENTRY#';
export const SOURCE_SK_PREFIX = 'SOURCE#';
export const EXECUTION_SK_PREFIX = 'EXECUTION#';
export const HOLD_SK_PREFIX = 'HOLD#';
/** Journal records by sequence (zero-padded, so text order is number order). */
export const JOURNAL_SEQUENCE_SK_PREFIX = 'SEQ#';
/** Journal records by commit time, then sequence: what as-of balances query. */
export const JOURNAL_TIME_SK_PREFIX = 'AT#';
/** Monitors of an account, by id (the count item sorts before them). */
export const MONITOR_SK_PREFIX = 'MONITOR#';
/** Pending credits of an intake partition, oldest first (acceptedAt, then entry id). */
export const PENDING_CREDIT_SK_PREFIX = 'PENDING#';
/** Set-aside credits of an intake partition (§36), beside its pending credits. */
export const SET_ASIDE_CREDIT_SK_PREFIX = 'SETASIDE#';
/** Day sums of an account's effective time, by day (`YYYY-MM-DD`). */
export const EFFECTIVE_DAY_SK_PREFIX = 'DAY#';
/** Sorts after every digit and date character: the open end of a key range. */
export const SK_RANGE_END = '~';

export const keys = {
  account: (accountId: string): ItemKey => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' }),
  /** Sorted by creation time (ISO-8601 sorts as text), then id for same-millisecond entries. */
  entry: (accountId: string, createdAt: string, entryId: string): ItemKey => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `${ENTRY_SK_PREFIX}${createdAt}#${entryId}`,
  }),
  idempotency: (scopeId: string): ItemKey => ({ pk: `IDEMPOTENCY#${scopeId}`, sk: 'IDEMPOTENCY' }),
  /** `paymentId` is unique per account and never expires (docs/contract.md §4). */
  payment: (accountId: string, paymentId: string): ItemKey => ({
    pk: `PAYMENT#${accountId}#${paymentId}`,
    sk: 'PAYMENT',
  }),
  /** Event-id dedup record; `scopeId` hashes (source, id) so any text is a safe key. */
  inbox: (scopeId: string): ItemKey => ({ pk: `INBOX#${scopeId}`, sk: 'INBOX' }),
  /** Sequence tracking of one event source for one account. */
  eventSource: (accountId: string, source: string): ItemKey => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `${SOURCE_SK_PREFIX}${source}`,
  }),
  task: (taskId: string): ItemKey => ({ pk: `TASK#${taskId}`, sk: 'TASK' }),
  /** Executions live in their task's partition: one Query reads a task with all of them. */
  execution: (taskId: string, executionId: string): ItemKey => ({
    pk: `TASK#${taskId}`,
    sk: `${EXECUTION_SK_PREFIX}${executionId}`,
  }),
  /** Finds an execution's task from the execution id alone (callbacks may omit taskid). */
  executionPointer: (executionId: string): ItemKey => ({
    pk: `EXECUTION#${executionId}`,
    sk: 'EXECUTION',
  }),
  /** Transactional outbox: one item per execution, delivered by the stream dispatcher. */
  outbox: (executionId: string): ItemKey => ({ pk: `OUTBOX#${executionId}`, sk: 'OUTBOX' }),
  /** A transfer's own record (docs/contract.md §10): what GET /v1/transfers/{id} reads. */
  transfer: (transferId: string): ItemKey => ({ pk: `TRANSFER#${transferId}`, sk: 'TRANSFER' }),
  /** A hold, read by its id alone (captures, voids, GET, the sweeper). */
  hold: (holdId: string): ItemKey => ({ pk: `HOLD#${holdId}`, sk: 'HOLD' }),
  /** The hold's copy in its account's partition, newest first: what the holds listing reads. */
  holdRef: (accountId: string, createdAt: string, holdId: string): ItemKey => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `${HOLD_SK_PREFIX}${createdAt}#${holdId}`,
  }),
  /** Where an account's journal stands: its last sequence and values (the projector's guard). */
  journalHead: (accountId: string): ItemKey => ({ pk: `JOURNAL#${accountId}`, sk: 'HEAD' }),
  /** A journal record by sequence: the journal route reads a range of them, ascending. */
  journalRecord: (accountId: string, sequence: number): ItemKey => ({
    pk: `JOURNAL#${accountId}`,
    sk: `${JOURNAL_SEQUENCE_SK_PREFIX}${padSequence(sequence)}`,
  }),
  /**
   * The same record keyed by commit time (committedAt never decreases along a journal, so this
   * order is the sequence order too): as-of balances read the first one after an instant.
   */
  journalAsOf: (accountId: string, committedAt: string, sequence: number): ItemKey => ({
    pk: `JOURNAL#${accountId}`,
    sk: `${JOURNAL_TIME_SK_PREFIX}${committedAt}#${padSequence(sequence)}`,
  }),
  /**
   * A re-fetch request for gaps (docs/contract.md §18); `requestId` hashes (source, subject,
   * the numbers) and is the CloudEvent's `id`.
   */
  gapRequest: (requestId: string): ItemKey => ({ pk: `GAPREQ#${requestId}`, sk: 'GAPREQ' }),
  /** Finds an entry by its id alone (docs/contract.md §16); written with the entry. */
  entryPointer: (entryId: string): ItemKey => ({ pk: `ENTRY_ID#${entryId}`, sk: 'ENTRY_ID' }),
  /** A ledger transaction's own record (§16): what GET /v1/ledger-transactions/{id} reads. */
  ledgerTransaction: (id: string): ItemKey => ({
    pk: `LEDGER_TRANSACTION#${id}`,
    sk: 'LEDGER_TRANSACTION',
  }),
  /**
   * The projector's mark on an account whose journal moved (docs/contract.md §19): sharded by
   * account id so the reconciler Queries a few partitions; cleared once checked, so a run reads
   * only what changed since the last one.
   */
  reconcileMarker: (shard: number | '*', accountId: string): ItemKey => ({
    pk: `RECONCILE_MARK#${shard}`,
    sk: accountId,
  }),
  /** How far the reconciler has checked an account's journal, and the values it ended at. */
  reconcileCheckpoint: (accountId: string): ItemKey => ({
    pk: `RECONCILE#${accountId}`,
    sk: 'CHECKPOINT',
  }),
  /**
   * A finding, once per (account, check, sequence) — or per (account, check, subject) for one
   * that names no journal record (a set-aside credit: `<setAsideAt>#<entryId>`): one partition,
   * listed by the CLI.
   */
  reconcileFinding: (
    accountId: string,
    check: string,
    sequence: number | undefined,
    subject?: string,
  ): ItemKey => ({
    pk: 'RECONCILE_FINDINGS',
    sk: `${accountId}#${check}#${subject ?? (sequence === undefined ? 'account' : padSequence(sequence))}`,
  }),
  /**
   * A balance monitor (docs/contract.md §28), in a partition of its account's monitors: one
   * Query lists them (the routes, and the projector after each journal update).
   */
  monitor: (accountId: string, monitorId: string): ItemKey => ({
    pk: `MONITOR#${accountId}`,
    sk: `${MONITOR_SK_PREFIX}${monitorId}`,
  }),
  /** How many monitors the account has (the limit's guard), beside them. */
  monitorCount: (accountId: string): ItemKey => ({ pk: `MONITOR#${accountId}`, sk: 'COUNT' }),
  /**
   * One day (UTC) of an account's effective time (docs/contract.md §31, §36): `{ kind:
   * 'effective-day', credits, debits, entries, through, addedAt }`, kept by the journal projector
   * (`through`: the last account version it added), in a partition of its own, so one Query
   * reads a month of days and the account item stays small.
   */
  effectiveDay: (accountId: string, day: string): ItemKey => ({
    pk: `EFFDAYS#${accountId}`,
    sk: `${EFFECTIVE_DAY_SK_PREFIX}${day}`,
  }),
  /**
   * The gate of one intake partition of a deferred account (docs/contract.md §24): `{ kind:
   * 'intake-gate', accountId, ownerId, currency, status, creditIntake, closedThrough?, accepted }`,
   * a copy of what intake must check of the account, so a pending credit is guarded without
   * touching the account item. `accepted` counts every intake into the partition ever; the
   * folder counts what it posted on an item of its own (`intakePosted`), so it never holds a
   * gate: accepted − posted is what waits (closing needs 0, a period close reads `accepted`).
   * Written at creation or when the account turns deferred, and by every change of the copied
   * fields (closing, period closes, re-owning), in the same transaction as the account.
   */
  intakeGate: (accountId: string, shard: number): ItemKey => ({
    pk: `INTAKE#${accountId}#${shard}`,
    sk: 'GATE',
  }),
  /** How many credits of an intake partition the folder posted (`{ posted }`), beside its gate. */
  intakePosted: (accountId: string, shard: number): ItemKey => ({
    pk: `INTAKE#${accountId}#${shard}`,
    sk: 'POSTED',
  }),
  /**
   * A pending credit (`{ kind: 'pending-credit', entry, acceptedAt, shard }`), beside its
   * partition's gate: the folder Queries a partition oldest first and deletes what it posted.
   */
  pendingCredit: (
    accountId: string,
    shard: number,
    acceptedAt: string,
    entryId: string,
  ): ItemKey => ({
    pk: `INTAKE#${accountId}#${shard}`,
    sk: `${PENDING_CREDIT_SK_PREFIX}${acceptedAt}#${entryId}`,
  }),
  /**
   * A set-aside credit (`{ kind: 'set-aside-credit', entry, acceptedAt, shard, reason,
   * setAsideAt }`, §36): a pending credit the folder can never post, moved beside the pending
   * ones so the folder and the sweep no longer read it, until `intake resolve` moves it back.
   */
  setAsideCredit: (
    accountId: string,
    shard: number,
    acceptedAt: string,
    entryId: string,
  ): ItemKey => ({
    pk: `INTAKE#${accountId}#${shard}`,
    sk: `${SET_ASIDE_CREDIT_SK_PREFIX}${acceptedAt}#${entryId}`,
  }),
  /**
   * The `INTAKE_DUE` marker of a deferred account (docs/contract.md §24): `{ kind: 'intake-due',
   * accountId, since, marks }` in the sweeper's due index while pending credits wait. The
   * dispatcher upserts it on each pending-credit insert (`marks` + 1, `since` the oldest
   * acceptance), the folder deletes it once the account is drained (while `marks` is as read).
   */
  intakeDue: (accountId: string): ItemKey => ({ pk: `INTAKE_DUE#${accountId}`, sk: 'DUE' }),
  /** Read by `GET /v1/health` and never written: the read only proves the table answers. */
  health: (): ItemKey => ({ pk: 'HEALTH', sk: 'HEALTH' }),
  /** Where a re-own run of this account keeps its checkpoint (operators only, never expires). */
  reownCheckpoint: (accountId: string): ItemKey => ({ pk: `REOWN#${accountId}`, sk: 'REOWN' }),
  /**
   * The lease of a re-own run's owner pair (`{ from, to, runId, expiresAt }`), got by key alone
   * with a conditional put: keyed by the old owner, so one run at a time moves that owner's
   * accounts, to whatever target (docs/contract.md §30). Deleted at the end of the run; a
   * crashed run's lease is taken over once `expiresAt` has passed.
   */
  reownLease: (from: string): ItemKey => ({ pk: `REOWN_LEASE#${from}`, sk: 'LEASE' }),
  /**
   * The lease of an `independent` batch's key (`{ kind: 'batch-lease', token, expiresAtMs,
   * expiresAt }`), got by key alone with a conditional put before any operation runs: keyed by
   * the batch's idempotency scope, so one copy of the batch at a time runs its operations
   * (docs/contract.md §25). Deleted on its token once the answer is recorded; a crashed
   * holder's lease is taken over once `expiresAtMs` has passed, and TTL removes it.
   */
  batchLease: (scopeId: string): ItemKey => ({ pk: `BATCH_LEASE#${scopeId}`, sk: 'LEASE' }),
  /**
   * An account's metadata (docs/contract.md §34): its own item beside the account, never on the
   * hot account item (`{ kind: 'account-metadata', accountId, ownerId, metadata, updatedAt }`).
   */
  accountMetadata: (accountId: string): ItemKey => ({
    pk: `ACCOUNT#${accountId}`,
    sk: 'METADATA',
  }),
} as const;

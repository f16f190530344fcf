/**
 * Re-owning an account (docs/contract.md §2, docs/operations.md): an operator moves an account
 * and everything under it that names its owner to another principal, idempotently and
 * resumably. Nothing here moves money; every step only rewrites `ownerId`.
 */

/**
 * The kinds of items under an account that carry its owner, moved in this order before the
 * accounts themselves (docs/contract.md §2). A new kind is one entry here and one finder in
 * `functions/dynamodb/reown/kinds.ts` (typecheck asks for it).
 */
export const OWNED_KINDS = ['holds', 'tasks', 'transfers', 'ledgerTransactions'] as const;
export type OwnedKind = (typeof OWNED_KINDS)[number];

/** One step of a run: pass 1 moves every kind and then the accounts; pass 2 catches up. */
export type ReownStep =
  | { readonly pass: 1 | 2; readonly phase: OwnedKind }
  | { readonly pass: 1; readonly phase: 'accounts' };

/**
 * Pass 1: holds, tasks (a checkpointed scan), transfers, ledger transactions, the accounts last. Pass 2 runs only when
 * an account changed during pass 1 (its `updatedAt` moved), so the old owner may have created
 * something under it; once the accounts are moved nothing new can appear, so pass 2 is final.
 */
export const REOWN_STEPS: readonly ReownStep[] = [
  ...OWNED_KINDS.map((phase) => ({ pass: 1 as const, phase })),
  { pass: 1, phase: 'accounts' },
  ...OWNED_KINDS.map((phase) => ({ pass: 2 as const, phase })),
];

/** An account as a run sees it: whose it is, and when it last changed. */
export interface AccountSnapshot {
  readonly id: string;
  readonly ownerId: string;
  readonly updatedAt: string;
  /** A deferred account's intake partitions: their gates copy the owner (§24). */
  readonly intakeShards?: number;
}

export type MovedCounts = Readonly<Record<OwnedKind | 'accounts', number>>;

export const NOTHING_MOVED: MovedCounts = {
  holds: 0,
  tasks: 0,
  transfers: 0,
  ledgerTransactions: 0,
  accounts: 0,
};

/** What a run leaves behind after every page, so an interrupted run resumes where it stopped. */
export interface ReownCheckpoint {
  /** The account the operator named; the checkpoint is keyed by it. */
  readonly accountId: string;
  readonly from: string;
  readonly to: string;
  /** Every account the run moves, the named one first, as they were when the run planned. */
  readonly accounts: readonly AccountSnapshot[];
  /** Index into {@link REOWN_STEPS}; `REOWN_STEPS.length` once done. */
  readonly step: number;
  /** Where the step continues: the store's opaque page cursor (accounts: the next index). */
  readonly cursor?: string;
  /** Pass 2 is needed: an account changed while pass 1 ran. */
  readonly catchUp: boolean;
  readonly moved: MovedCounts;
  readonly startedAt: string;
  readonly updatedAt: string;
  /** 1 for the first write; each write expects the one before (two runs never both advance). */
  readonly version: number;
}

export const isDone = (checkpoint: ReownCheckpoint): boolean =>
  checkpoint.step >= REOWN_STEPS.length;

/** Why a run does not start or cannot go on; nothing has moved that should not have. */
export type ReownRefusal =
  | { readonly kind: 'unknown_account'; readonly accountId: string }
  /**
   * Transfers and ledger transactions link the account to others of the same owner;
   * `--with-linked` moves them too.
   */
  | { readonly kind: 'linked_accounts'; readonly accounts: readonly AccountSnapshot[] }
  /** A transfer or ledger transaction links an account of the run to one of a third principal. */
  | { readonly kind: 'foreign_links'; readonly accounts: readonly AccountSnapshot[] }
  /** An unfinished run of this account moves it elsewhere; finish that one first. */
  | { readonly kind: 'other_run'; readonly to: string }
  /** Another run wrote the checkpoint meanwhile. */
  | { readonly kind: 'concurrent_run' }
  /**
   * Another run holds the lease of this owner (docs/contract.md §30): until `lease.expiresAt`,
   * or, to another target, until that run is finished.
   */
  | { readonly kind: 'lease_held'; readonly lease: ReownLease }
  /** An account of the run got an owner that is neither the old nor the new one. */
  | { readonly kind: 'owner_changed'; readonly account: AccountSnapshot };

/**
 * What a run holds while it moves anything (docs/contract.md §30): one lease per old owner,
 * naming the pair, so two runs never move the same owner's items at once — to the same target
 * or another. It expires, so a run of the same pair takes a crashed run's lease over after
 * `REOWN_LEASE_SECONDS`; a run to another target waits until the crashed run is finished.
 */
export interface ReownLease {
  readonly from: string;
  readonly to: string;
  /** The run holding it: only that run renews or releases it. */
  readonly runId: string;
  /** ISO-8601; renewed after every page. */
  readonly expiresAt: string;
}

/** How long a lease outlives the holder's last page: far above a page, short for a takeover. */
export const REOWN_LEASE_SECONDS = 120;

export interface ReownRequest {
  readonly accountId: string;
  readonly to: string;
  /** Move the accounts transfers and ledger transactions link this one to as well (same owner). */
  readonly withLinked: boolean;
}

/** What a run reports as it goes: planned or resumed, each page, the end. */
export type ReownEvent =
  | { readonly kind: 'planned'; readonly checkpoint: ReownCheckpoint }
  | { readonly kind: 'resumed'; readonly checkpoint: ReownCheckpoint }
  | {
      readonly kind: 'page';
      readonly step: ReownStep;
      readonly seen: number;
      readonly moved: number;
      readonly checkpoint: ReownCheckpoint;
    }
  | { readonly kind: 'accounts_moved'; readonly checkpoint: ReownCheckpoint }
  | { readonly kind: 'done'; readonly checkpoint: ReownCheckpoint };

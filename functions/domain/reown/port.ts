import type { AccountSnapshot, OwnedKind, ReownCheckpoint, ReownLease } from './model';

/** One page of one kind: how many items were looked at and moved, and where the next starts. */
export interface OwnedPage {
  readonly seen: number;
  /** Items whose owner was not already the new one. */
  readonly moved: number;
  /** Undefined once the kind is done for every account. */
  readonly cursor?: string;
}

export type AccountsMove =
  | { readonly kind: 'moved' }
  /** An account's `updatedAt` is not the one planned: something happened under it meanwhile. */
  | { readonly kind: 'changed' }
  | { readonly kind: 'owner_changed'; readonly account: AccountSnapshot }
  /** The checkpoint is not the version read: another run advanced it. */
  | { readonly kind: 'checkpoint_moved' };

/** Storage for re-owning (docs/operations.md "Re-owning an account"). */
export interface ReownPort {
  /** Strongly consistent. */
  getAccount(accountId: string): Promise<AccountSnapshot | undefined>;
  /** The accounts this one's transfers and ledger transactions link it to, each once. */
  linkedAccounts(accountId: string): Promise<readonly string[]>;
  readCheckpoint(accountId: string): Promise<ReownCheckpoint | undefined>;
  /** Writes `checkpoint` only over `checkpoint.version - 1` (none for 1); false otherwise. */
  saveCheckpoint(checkpoint: ReownCheckpoint): Promise<boolean>;
  /**
   * Sets `ownerId = to` on one page of `kind` items under `accountIds`, from `cursor`, each only
   * while its owner is `from` (with `from === to`, a repair run: while it is not `to`).
   */
  moveOwned(
    kind: OwnedKind,
    accountIds: readonly string[],
    move: { readonly from: string; readonly to: string },
    cursor: string | undefined,
  ): Promise<OwnedPage>;
  /**
   * Writes `lease` unless another run holds the lease of `lease.from`: one that expires after
   * `now`, or an expired one to another target (finish that run first). The same run renews
   * its own; the holder otherwise.
   */
  takeLease(
    lease: ReownLease,
    now: string,
  ): Promise<{ readonly kind: 'taken' } | { readonly kind: 'held'; readonly lease: ReownLease }>;
  /** Deletes `lease` if the run still holds it. */
  releaseLease(lease: ReownLease): Promise<void>;
  /**
   * ONE transaction: each account to `to` while its owner is `from` or already `to` (and, with
   * `unchanged`, while its `updatedAt` is the snapshot's), together with `checkpoint`.
   */
  moveAccounts(
    accounts: readonly AccountSnapshot[],
    move: { readonly from: string; readonly to: string; readonly unchanged: boolean },
    checkpoint: ReownCheckpoint,
  ): Promise<AccountsMove>;
}

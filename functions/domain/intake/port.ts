import type { AccountRecord } from '../accounts/model';
import type { PendingCredit } from '../accounts/pending-credits';

/**
 * What the folder (docs/contract.md §24, posting.ts) needs of the table: the pending credits of
 * an account and ONE transaction that posts a chunk of them.
 */
export interface PostingPort {
  /**
   * The account's pending credits, strongly consistent: of each of its intake partitions the
   * oldest `perShard` at most (in the partition's own order). None for an account that has no
   * intake partitions, or no account.
   */
  readPending(accountId: string, perShard: number): Promise<readonly PendingCredit[]>;
  /**
   * ONE TransactWriteItems: the account gets the chunk's sum and one journal change per credit
   * (in this order, each `at` this time), the n entries and their pointers are written, the n
   * pending items removed (each only if still there) and counted out of their gates.
   */
  post(accountId: string, credits: readonly PendingCredit[], at: string): Promise<PostOutcome>;
  /**
   * ONE transaction: the pending item is removed (only if still there) and a set-aside item of
   * the same credit written beside it with `reason` and `setAsideAt` (§36); `gone` when another
   * folder took the pending item first.
   */
  setAside(credit: PendingCredit, reason: string, at: string): Promise<'set_aside' | 'gone'>;
}

export type PostOutcome =
  | { readonly kind: 'posted' }
  /** A pending item was gone or an entry already there: another folder posted it; read again. */
  | { readonly kind: 'gone' }
  /** Cancelled by a concurrent writer of one of the items (or throttling); read again. */
  | { readonly kind: 'contended'; readonly reason: string }
  /**
   * The account update itself was refused (the balance cap, a closed period, no account): a
   * real reason, which reading again does not change. The account as it stood, when it exists.
   */
  | { readonly kind: 'refused'; readonly account: AccountRecord | undefined };

/** Where the folder is told which accounts have pending credits: `credit-intake` (§24). */
export interface CreditIntakeQueue {
  /** One message per account; answers the accounts whose message was not accepted. */
  notify(accountIds: readonly string[]): Promise<readonly string[]>;
}

/**
 * The per-account `INTAKE_DUE` marker (docs/contract.md §24) through which the sweep finds
 * deferred accounts whose pending credits stranded (a folder that failed, a message
 * dead-lettered): upserted for every pending-credit insert, deleted when the account is drained.
 */
export interface IntakeDuePort {
  /** Upserts the marker: counted once more, `since` kept at the oldest acceptance, due then. */
  mark(accountId: string, acceptedAt: string, dueAt: Date): Promise<void>;
  /** The marker's count, undefined when there is none. */
  marks(accountId: string): Promise<number | undefined>;
  /** Deletes the marker while its count is still `marks` (no insert marked it since). */
  clear(accountId: string, marks: number): Promise<void>;
  /** acceptedAt of the account's oldest pending credit (set-aside credits excluded). */
  oldestPendingAt(accountId: string): Promise<string | undefined>;
  /** The marker (if still there) falls due again at `dueAt`, `since` the oldest acceptance. */
  postpone(accountId: string, since: string, dueAt: Date): Promise<void>;
}

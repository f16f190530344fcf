import type { AccountRecord } from '../accounts/model';
import type { PendingCredit } from './model';

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

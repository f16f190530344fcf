/**
 * What an account must satisfy for one side of a movement to apply (docs/contract.md §5, §11,
 * §17): checked by the account update's condition in the movement's own transaction.
 */
export interface EntryGuard {
  /** The account must exist and, when given, belong to this principal. */
  readonly ownerId?: string;
  /** The account must hold this currency. */
  readonly currency: string;
  /**
   * Debits, transfers, ledger legs, holds, fees: what the account may draw on must cover the
   * amount — the effective available balance (`available`, or `balance` on an account from
   * before holds, §11) plus its `overdraftLimit` (§17).
   */
  readonly requireAvailableAtLeast?: number;
  /** Credits (and a transfer's destination): the balance plus this must stay within 2^53 − 1 (docs/contract.md §5). */
  readonly increaseBy?: number;
  /** Every effect a caller or producer asks for: the account must not be closed (§17). */
  readonly requireOpen?: boolean;
  /**
   * When the entry counts: it must be later than the account's `closedThrough` (§26). The
   * write derives the same condition from its changes; this is what explains a refusal.
   */
  readonly effectiveAt?: string;
}

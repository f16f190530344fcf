/** A ledger transaction's leg as a request body carries it (docs/contract.md §16, §35). */
export type Direction = 'debit' | 'credit';

/** One leg; `currency` only when given (a leg without one takes the transaction's). */
export const leg = (
  accountId: string,
  direction: Direction,
  amount: number,
  currency?: string,
) => ({
  accountId,
  direction,
  amount,
  ...(currency === undefined ? {} : { currency }),
});

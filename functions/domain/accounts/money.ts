/** Money rules (docs/contract.md §5): integer minor units and ISO 4217 currencies. */
export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 1_000_000_000_000;

/** The largest `overdraftLimit` an account may have (docs/contract.md §17). */
export const MAX_OVERDRAFT_LIMIT = MAX_AMOUNT;

/** ISO 4217 codes, read from ICU on the first check rather than at every function's init. */
let iso4217: ReadonlySet<string> | undefined;

export function isIsoCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  iso4217 ??= new Set(Intl.supportedValuesOf('currency'));
  return iso4217.has(code);
}

/**
 * The highest balance in minor units: 2^53 − 1, the largest integer a JSON number carries
 * exactly. Updates refuse to pass it (docs/contract.md §5), so a balance is never rounded.
 */
export const MAX_BALANCE = Number.MAX_SAFE_INTEGER;

/** True when adding `increase` to `balance` would pass MAX_BALANCE. */
export function exceedsBalanceLimit(balance: number, increase: number): boolean {
  return increase > 0 && balance > MAX_BALANCE - increase;
}

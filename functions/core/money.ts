/** Money rules (CONTRACT §5): integer minor units and ISO 4217 currencies. */
export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 1_000_000_000_000;

const ISO_4217 = new Set(Intl.supportedValuesOf('currency'));

export function isIsoCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && ISO_4217.has(code);
}

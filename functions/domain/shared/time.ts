/** Milliseconds in a day (UTC days: no leap seconds in ISO 8601 arithmetic). */
export const DAY_MS = 86_400_000;

/**
 * Epoch seconds of an instant (a Date, or epoch milliseconds), rounded down: what idempotency
 * and inbox claims, DynamoDB TTLs and callback signatures count in. Now when none is given.
 */
export function epochSeconds(at: Date | number = Date.now()): number {
  return Math.floor((typeof at === 'number' ? at : at.getTime()) / 1000);
}

/** Pause before optimistic attempt `attempt + 1`: full jitter, doubling from 10 ms up to 200 ms. */
export function optimisticBackoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(200, 10 * 2 ** (attempt - 1)));
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

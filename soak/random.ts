/**
 * Seeded randomness for the soak (mulberry32): the same seed draws the same plan and the same
 * faults, so a failing seed replays. Decisions that must not move when the plan is shrunk (is
 * this answer lost?) hash their own inputs instead of drawing from a shared stream.
 */
export interface Random {
  /** [0, 1) */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from nothing');
      return items[int(0, items.length - 1)] as never;
    },
  };
}

/** A number in [0, 1) fixed by the seed and the parts (FNV-1a, then one mulberry32 step). */
export function hashed(seed: number, ...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5 ^ seed;
  for (const char of parts.join('\u0000')) {
    h ^= char.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return seeded(h).next();
}

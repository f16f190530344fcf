/**
 * A per-item write budget: DynamoDB serves at most 1,000 write units per second on one
 * partition (docs/contract.md §20); the contention layer applies a (scaled-down) budget to each
 * item. One token bucket per item, refilled continuously at `unitsPerSecond` and holding at
 * most one second of them, so a short burst passes and a sustained excess is throttled.
 */
export class WriteBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep: number;

  constructor(
    readonly unitsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(unitsPerSecond > 0)) throw new Error(`a write budget needs units per second > 0`);
    this.lastSweep = now();
  }

  /**
   * Takes `units` from every item listed, or from none: true when each bucket had enough. An
   * item asking for more than a second's worth still passes on a full bucket (DynamoDB writes a
   * 400 KB item too) and leaves that bucket empty.
   */
  take(costs: ReadonlyMap<string, number>): { ok: true } | { ok: false; over: Set<string> } {
    const at = this.now();
    this.sweep(at);
    const over = new Set<string>();
    for (const [id, units] of costs) {
      const tokens = this.tokens(id, at);
      if (tokens < Math.min(units, this.unitsPerSecond)) over.add(id);
    }
    if (over.size > 0) return { ok: false, over };
    for (const [id, units] of costs) {
      this.buckets.set(id, { tokens: this.tokens(id, at) - units, at });
    }
    return { ok: true };
  }

  private tokens(id: string, at: number): number {
    const bucket = this.buckets.get(id);
    if (!bucket) return this.unitsPerSecond;
    const refilled = bucket.tokens + ((at - bucket.at) / 1000) * this.unitsPerSecond;
    return Math.min(this.unitsPerSecond, refilled);
  }

  /** Forgets full buckets now and then, so every entry ever written is not kept forever. */
  private sweep(at: number): void {
    if (at - this.lastSweep < 5_000) return;
    this.lastSweep = at;
    for (const id of [...this.buckets.keys()]) {
      if (this.tokens(id, at) >= this.unitsPerSecond) this.buckets.delete(id);
    }
  }
}

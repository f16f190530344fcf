/**
 * How the hedged claim read is sent, decided from the replays an instance met lately
 * (docs/contract.md §4 "Hedged claim read"; hedged-claims.ts).
 *
 * - `plain`: the transaction only. A replay then costs its cancelled transaction, which still
 *   answers it (the cancellation returns the claim).
 * - `alongside`: the transaction, and the claim's read sent beside it; whichever settles the
 *   request first answers.
 * - `readFirst`: the claim's read, then the transaction only when the read found no claim. A
 *   replay costs one GetItem and no transaction; a first request pays the read before its write.
 */
export type HedgeWay = 'plain' | 'alongside' | 'readFirst';

/** `adaptive` picks a way per request from the recent replays; `always` sends every read alongside. */
export type HedgeMode = 'adaptive' | 'always';

export interface ReplayWindowOptions {
  /** Guarded writes remembered. @default 32 */
  readonly size?: number;
  /** Share of replays among them from which the read goes first. @default 0.5 */
  readonly readFirstFrom?: number;
}

export const DEFAULT_REPLAY_WINDOW = 32;
export const DEFAULT_READ_FIRST_FROM = 0.5;

/**
 * The outcomes (replay or not) of the last `size` guarded writes of one instance (all it made
 * while fewer). No replay among them: `plain` (no read units spent while none come); some:
 * `alongside` (a replay is answered at a read's latency, a first request still at its
 * transaction's); at least `readFirstFrom` of them: `readFirst` (a retry storm: replays cost no
 * transaction at all). A fresh instance whose first write was a replay reads first next.
 */
export class ReplayWindow {
  private readonly outcomes: boolean[] = [];
  private next = 0;
  private replays = 0;
  private readonly size: number;
  private readonly readFirstFrom: number;

  constructor(options: ReplayWindowOptions = {}) {
    this.size = options.size ?? DEFAULT_REPLAY_WINDOW;
    this.readFirstFrom = options.readFirstFrom ?? DEFAULT_READ_FIRST_FROM;
    if (!Number.isInteger(this.size) || this.size < 1)
      throw new RangeError(`a replay window holds at least one write (got ${this.size})`);
    if (!(this.readFirstFrom > 0 && this.readFirstFrom <= 1))
      throw new RangeError(`readFirstFrom is a share in (0, 1] (got ${this.readFirstFrom})`);
  }

  /** The way for the next guarded write. */
  way(): HedgeWay {
    if (this.replays === 0) return 'plain';
    return this.replays >= this.readFirstFrom * this.outcomes.length ? 'readFirst' : 'alongside';
  }

  /** Remembers one guarded write's outcome, forgetting the oldest beyond `size`. */
  record(replay: boolean): void {
    if (this.outcomes.length < this.size) {
      this.outcomes.push(replay);
    } else {
      if (this.outcomes[this.next]) this.replays--;
      this.outcomes[this.next] = replay;
      this.next = (this.next + 1) % this.size;
    }
    if (replay) this.replays++;
  }
}

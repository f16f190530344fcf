/**
 * One line of progress on a TTY, redrawn each second: operations answered and their rate, the
 * faults injected so far and the retries they caused, and the checks so far (runs checked, their
 * findings, journals verified). Silent when stdout is not a TTY (CI, tests).
 */
export interface Counts {
  readonly operations: number;
  readonly lost: number;
  readonly kills: number;
  readonly outages: number;
  readonly retries: number;
  /** Rounds and shrink replays checked against the model, and their findings. */
  readonly checked: number;
  readonly findings: number;
  /** Journals the project's verifier read (own stack). */
  readonly verified: number;
}

export function progressLine(c: Counts, seconds: number): string {
  const rate = (c.operations / Math.max(seconds, 1)).toFixed(1);
  return `${Math.round(seconds)} s: ${c.operations} operations (${rate}/s), faults: ${c.lost} lost answers, ${c.kills} kills, ${c.outages} outages; ${c.retries} retries; checks: ${c.checked} run(s) checked, ${c.findings} finding(s), ${c.verified} journal(s) verified`;
}

export class Progress {
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly started = Date.now();

  constructor(tty: boolean, counts: () => Counts) {
    if (!tty) return;
    this.timer = setInterval(() => {
      const seconds = (Date.now() - this.started) / 1000;
      process.stdout.write(`\r${progressLine(counts(), seconds)}   `);
    }, 1_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    process.stdout.write('\n');
  }
}

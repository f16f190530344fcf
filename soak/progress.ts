/**
 * One line of progress on a TTY, redrawn each second: operations answered and their rate, the
 * faults injected so far and the retries they caused. Silent when stdout is not a TTY (CI, tests).
 */
export interface Counts {
  readonly operations: number;
  readonly lost: number;
  readonly kills: number;
  readonly outages: number;
  readonly retries: number;
}

export class Progress {
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly started = Date.now();

  constructor(tty: boolean, counts: () => Counts) {
    if (!tty) return;
    this.timer = setInterval(() => {
      const c = counts();
      const seconds = (Date.now() - this.started) / 1000;
      const rate = (c.operations / Math.max(seconds, 1)).toFixed(1);
      process.stdout.write(
        `\r${Math.round(seconds)} s: ${c.operations} operations (${rate}/s), faults: ${c.lost} lost answers, ${c.kills} kills, ${c.outages} outages; ${c.retries} retries   `,
      );
    }, 1_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    process.stdout.write('\n');
  }
}

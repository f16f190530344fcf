import { messageOf } from '../../functions/domain/shared/log';

/**
 * The local stack's start/stop bookkeeping. Each service registers how to stop itself as soon
 * as it holds a resource (a child process, a port, a client); shutdown stops them in reverse
 * order, and an abort signal interrupts a service that is still starting.
 */
export interface Stoppable {
  readonly name: string;
  stop(): Promise<void> | void;
}

export class Lifecycle {
  private readonly stack: Stoppable[] = [];
  private readonly late: Promise<void>[] = [];
  private readonly controller = new AbortController();
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly log: (line: string) => void = () => {},
    private readonly stopTimeoutMs = 10_000,
  ) {}

  /** Aborted once shutdown begins; pass it to anything slow that starts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Registers a stopper. After shutdown began, the resource is stopped right away. */
  defer(name: string, stop: Stoppable['stop']): void {
    const entry = { name, stop };
    if (this.stopping) {
      this.late.push(this.stopOne(entry));
      return;
    }
    this.stack.push(entry);
  }

  /** Stops everything registered, newest first; one failure does not skip the others. */
  stopAll(): Promise<void> {
    this.stopping ??= (async () => {
      this.controller.abort();
      for (let entry = this.stack.pop(); entry; entry = this.stack.pop()) {
        await this.stopOne(entry);
      }
    })();
    return this.stopping;
  }

  /**
   * Resolves when shutdown is complete, including resources a still-starting service
   * registered after shutdown began: waits for `startup` to settle (at most `stopTimeoutMs`).
   */
  async stopAllAfter(startup: Promise<unknown> | undefined): Promise<void> {
    await this.stopAll();
    if (startup)
      await this.within(
        startup.then(
          () => {},
          () => {},
        ),
      );
    await Promise.all(this.late);
  }

  private within(work: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.stopTimeoutMs);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  private async stopOne(entry: Stoppable): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.stopTimeoutMs);
    });
    try {
      const outcome = await Promise.race([Promise.resolve(entry.stop()), timeout]);
      if (outcome === 'timeout')
        this.log(`${entry.name} did not stop within ${this.stopTimeoutMs} ms`);
      else this.log(`stopped ${entry.name}`);
    } catch (error) {
      this.log(`could not stop ${entry.name}: ${messageOf(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

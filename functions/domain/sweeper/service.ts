import type { DueItem, DuePort, SweepHandler } from './port';

export interface KindReport {
  settled: number;
  alreadyDone: number;
  failed: number;
  /** Seconds the oldest item seen had been due when the sweep started; 0 when none. */
  oldestDueAgeSeconds: number;
}

export interface SweepReport {
  readonly byKind: ReadonlyMap<string, KindReport>;
  /** Stopped because the time budget ran out; the rest waits for the next sweep. */
  readonly truncated: boolean;
}

export interface SweepFailure {
  readonly kind: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly error: unknown;
}

export interface SweeperOptions {
  readonly shardCount: number;
  /** Items read per query. @default 50 */
  readonly pageSize?: number;
  /** Stop starting new pages after this long (a Lambda must finish before its timeout). */
  readonly budgetMs?: number;
  /** Told about every item that could not be settled (logged by the entry point). */
  readonly onFailure?: (failure: SweepFailure) => void;
  readonly elapsedMs?: () => number;
}

export class Sweeper {
  private readonly handlers = new Map<string, SweepHandler>();

  constructor(
    private readonly port: DuePort,
    handlers: readonly SweepHandler[],
    private readonly options: SweeperOptions,
  ) {
    for (const handler of handlers) this.register(handler);
  }

  /** Adds the handler for one kind; a kind has exactly one. */
  register(handler: SweepHandler): void {
    if (this.handlers.has(handler.kind)) {
      throw new Error(`a sweep handler for kind "${handler.kind}" is already registered`);
    }
    this.handlers.set(handler.kind, handler);
  }

  get kinds(): readonly string[] {
    return [...this.handlers.keys()];
  }

  /** One pass over every shard: settles what is due at `now`. Shards run concurrently. */
  async sweep(now: Date): Promise<SweepReport> {
    const byKind = new Map<string, KindReport>();
    for (const kind of this.handlers.keys()) byKind.set(kind, emptyReport());
    const started = this.options.elapsedMs ?? stopwatch();
    const budgetMs = this.options.budgetMs ?? Number.POSITIVE_INFINITY;
    let truncated = false;
    const shards = Array.from({ length: this.options.shardCount }, (_, shard) => shard);
    await Promise.all(
      shards.map(async (shard) => {
        let after: string | undefined;
        do {
          if (started() > budgetMs) {
            truncated = true;
            return;
          }
          const page = await this.port.listDue(
            shard,
            now.getTime(),
            this.options.pageSize ?? 50,
            after,
          );
          for (const item of page.items) await this.settleOne(item, now, byKind);
          after = page.next;
        } while (after !== undefined);
      }),
    );
    return { byKind, truncated };
  }

  private async settleOne(item: DueItem, now: Date, byKind: Map<string, KindReport>) {
    const report = byKind.get(item.kind) ?? emptyReport();
    byKind.set(item.kind, report);
    const age = Math.max(0, Math.floor((now.getTime() - item.dueAt) / 1000));
    report.oldestDueAgeSeconds = Math.max(report.oldestDueAgeSeconds, age);
    const handler = this.handlers.get(item.kind);
    try {
      if (!handler) throw new Error(`no sweep handler for kind "${item.kind}"`);
      const outcome = await handler.settle(item, now);
      if (outcome === 'settled') report.settled++;
      else report.alreadyDone++;
    } catch (error) {
      report.failed++;
      this.options.onFailure?.({ kind: item.kind, attributes: item.attributes, error });
    }
  }
}

function emptyReport(): KindReport {
  return { settled: 0, alreadyDone: 0, failed: 0, oldestDueAgeSeconds: 0 };
}

function stopwatch(): () => number {
  const start = Date.now();
  return () => Date.now() - start;
}

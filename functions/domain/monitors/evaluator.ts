import type { JournalRecord } from '../journal/model';
import { evaluate, type Monitor, type MonitorEvent } from './model';
import type { MonitorEvaluationPort } from './port';

/** A monitor that keeps moving under the projector (another lane on it) is read this often. */
const MAX_ATTEMPTS = 3;

/**
 * The monitors of one account while the projector goes through its updates (docs/contract.md
 * §28). After each update's records (written now or already), every monitor is evaluated from
 * the record after its own `sequence`; its flips are recorded with one conditional write (new
 * state, stateSince, sequence, and the flips' events appended to `pending`), so a redelivered
 * or replayed batch finds nothing to flip and publishes nothing again. Events recorded and not
 * yet confirmed (a crash before the publish) are published on the next batch of the account.
 */
export class AccountMonitors {
  private readonly monitors = new Map<string, Monitor>();

  constructor(
    private readonly port: MonitorEvaluationPort,
    private readonly source: string,
    loaded: readonly Monitor[],
  ) {
    for (const monitor of loaded) this.monitors.set(monitor.id, monitor);
  }

  /** Reads the account's monitors once per batch (one strongly consistent Query). */
  static async load(
    port: MonitorEvaluationPort,
    source: string,
    accountId: string,
  ): Promise<AccountMonitors> {
    return new AccountMonitors(port, source, await port.listMonitors(accountId));
  }

  /** Events recorded by an earlier run and not confirmed as published. */
  unconfirmed(): MonitorEvent[] {
    return [...this.monitors.values()].flatMap((m) => m.pending ?? []);
  }

  /** Evaluates every monitor on `records` (one update's, ascending); the new flips' events. */
  async apply(records: readonly JournalRecord[]): Promise<MonitorEvent[]> {
    const events: MonitorEvent[] = [];
    for (const id of [...this.monitors.keys()]) events.push(...(await this.applyOne(id, records)));
    return events;
  }

  private async applyOne(id: string, records: readonly JournalRecord[]): Promise<MonitorEvent[]> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const from = this.monitors.get(id);
      if (!from) return [];
      const { monitor: to, flips } = evaluate(from, records, this.source);
      if (flips.length === 0) return [];
      const result = await this.port.recordFlips(from, to, flips);
      if (result.kind === 'recorded') {
        this.monitors.set(id, { ...to, pending: [...(from.pending ?? []), ...flips] });
        return [...flips];
      }
      if (result.monitor) this.monitors.set(id, result.monitor);
      else this.monitors.delete(id);
    }
    throw new Error(`monitor ${id} keeps moving while its flips are recorded`);
  }

  /**
   * After the publish: clears `pending` of every monitor none of whose events was refused
   * (`refused`: ids). A monitor that moved meanwhile keeps them; they go out again, same ids.
   */
  async confirm(refused: ReadonlySet<string>): Promise<void> {
    for (const [id, monitor] of this.monitors) {
      const pending = monitor.pending ?? [];
      if (pending.length === 0 || pending.some((e) => refused.has(e.id))) continue;
      await this.port.confirmPublished(monitor);
      const { pending: _published, ...rest } = monitor;
      this.monitors.set(id, rest);
    }
  }
}

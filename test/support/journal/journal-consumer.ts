import type { JournalEvent } from '../../../functions/domain/journal/events';
import type { JournalRecord } from '../../../functions/domain/journal/model';

/** One page of `GET /v1/accounts/{accountId}/journal` (docs/contract.md §15). */
export interface JournalPageAnswer {
  readonly items: readonly JournalRecord[];
  readonly nextAfterSequence: number | null;
}

export type FetchJournalPage = (
  accountId: string,
  afterSequence: number,
) => Promise<JournalPageAnswer>;

/**
 * The reference consumer of `ledger.journal.v1` (docs/contract.md §15, the same logic as the
 * snippet there): dedupes by event id, tracks the last sequence it applied per account, and on
 * a gap re-fetches from the journal route. `apply` runs exactly once per record, in sequence
 * order per account, whatever the topic dropped, repeated or reordered.
 */
export class JournalConsumer {
  private readonly seen = new Set<string>();
  private readonly applied = new Map<string, number>();
  /** How often a gap sent it to the journal route (for tests and dashboards). */
  catchUps = 0;

  constructor(
    private readonly fetchPage: FetchJournalPage,
    private readonly apply: (record: JournalRecord) => void,
  ) {}

  /** The last sequence applied for an account (0: none). */
  lastApplied(accountId: string): number {
    return this.applied.get(accountId) ?? 0;
  }

  async onEvent(event: JournalEvent): Promise<void> {
    if (this.seen.has(event.id)) return; // a duplicate delivery
    this.seen.add(event.id);
    const last = this.lastApplied(event.subject);
    if (event.data.sequence <= last) return; // a catch-up applied it already
    if (event.data.sequence === last + 1) {
      this.applyOne(event.data);
      return;
    }
    await this.catchUp(event.subject); // a gap: fetch what is missing, this record included
  }

  /**
   * Reads the journal after the last applied sequence up to its end. Also what to call now and
   * then: a lost last event leaves no later one to reveal its gap.
   */
  async catchUp(accountId: string): Promise<void> {
    this.catchUps++;
    for (;;) {
      const page = await this.fetchPage(accountId, this.lastApplied(accountId));
      for (const record of page.items) {
        if (record.sequence === this.lastApplied(accountId) + 1) this.applyOne(record);
      }
      if (page.nextAfterSequence === null) return;
    }
  }

  private applyOne(record: JournalRecord): void {
    this.applied.set(record.accountId, record.sequence);
    this.apply(record);
  }
}

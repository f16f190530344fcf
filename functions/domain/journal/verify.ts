import { type ChainBreak, type ChainPoint, checkChain, hashedContent } from './chain';
import type { JournalHead, JournalRecord } from './model';

/** Records read per page while verifying (one Query each). */
const VERIFY_PAGE = 1000;

/** What verifying a journal reads: the head, the records by sequence, their time-keyed copies. */
export interface JournalVerifyPort {
  readHead(accountId: string): Promise<JournalHead | undefined>;
  /** Records `from … to`, ascending, strongly consistent. */
  readRecords(accountId: string, from: number, to: number): Promise<JournalRecord[]>;
  /** Every time-keyed copy of the account's records (the as-of route's items). */
  readTimeCopies(accountId: string): Promise<JournalRecord[]>;
  /** Accounts that have a journal, a page at a time (`start`: where the previous page ended). */
  journalAccounts(start?: string): Promise<{ items: readonly string[]; next?: string }>;
}

export interface Verification {
  readonly accountId: string;
  /** Records checked. */
  readonly records: number;
  /** The first record that does not hold; absent when the whole journal does. */
  readonly broken?: ChainBreak;
}

/**
 * `npm run cli -- verify` (docs/contract.md §27): recomputes an account's hash chain and its
 * `balanceAfter`/`availableAfter` arithmetic from record 1 to the head, checks that the head
 * stands at the last record with its hash and that every time-keyed copy is its record, and
 * reports the first break. Reads only.
 */
export class JournalVerifier {
  constructor(private readonly port: JournalVerifyPort) {}

  async verifyAccount(accountId: string): Promise<Verification> {
    const head = await this.port.readHead(accountId);
    const last = head?.lastSequence ?? 0;
    const found: ChainBreak[] = [];
    let point: ChainPoint | undefined;
    let records = 0;
    const bySequence = new Map<number, string>();
    for (let from = 1; from <= last; from += VERIFY_PAGE) {
      const page = await this.port.readRecords(
        accountId,
        from,
        Math.min(last, from + VERIFY_PAGE - 1),
      );
      const checked = checkChain(page, point);
      found.push(...checked.breaks);
      point = checked.end;
      records += page.length;
      for (const record of page)
        bySequence.set(record.sequence, hashedContent(record) + record.hash);
    }
    if (head && (point?.sequence ?? 0) !== last) {
      const at = (point?.sequence ?? 0) + 1;
      found.push({
        sequence: at,
        problem: 'sequence',
        detail: `records ${at}…${last} are missing`,
      });
    } else if (head && point && head.hash !== point.hash) {
      found.push({
        sequence: last,
        problem: 'hash',
        detail: `the journal head names hash ${head.hash ?? 'none'}, its last record has ${point.hash ?? 'none'}`,
      });
    }
    if (head) found.push(...(await this.copies(accountId, bySequence)));
    const broken = found.sort((a, b) => a.sequence - b.sequence)[0];
    return broken ? { accountId, records, broken } : { accountId, records };
  }

  /** Every account with a journal, one after another; `onEach` sees each result. */
  async verifyAll(onEach: (verification: Verification) => void): Promise<void> {
    let start: string | undefined;
    do {
      const page = await this.port.journalAccounts(start);
      for (const accountId of page.items) onEach(await this.verifyAccount(accountId));
      start = page.next;
    } while (start !== undefined);
  }

  /** A time-keyed copy must be its record, byte for byte once canonical. */
  private async copies(accountId: string, records: ReadonlyMap<number, string>) {
    const found: ChainBreak[] = [];
    for (const copy of await this.port.readTimeCopies(accountId)) {
      if (records.get(copy.sequence) === hashedContent(copy) + copy.hash) continue;
      found.push({
        sequence: copy.sequence,
        problem: 'hash',
        detail: `the time-keyed copy of record ${copy.sequence} differs from the record`,
      });
    }
    return found;
  }
}

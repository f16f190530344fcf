import { type ChainBreak, type ChainPoint, linkProblem, pointOf } from './chain';
import type { JournalHead, JournalRecord } from './model';
import { CopyWalk, type TimeCopy, type VerifyPage } from './verify-copies';

export type { TimeCopy, VerifyPage } from './verify-copies';

/** Records (and copies) read per page while verifying (one Query each). */
const VERIFY_PAGE = 1000;

/** What the reconciler last checked (§19): a record's sequence and hash, outside the records. */
export interface ChainCheckpoint {
  readonly sequence: number;
  readonly hash?: string;
}

/** What verifying a journal reads: the head, the records by sequence, their time-keyed copies. */
export interface JournalVerifyPort {
  readHead(accountId: string): Promise<JournalHead | undefined>;
  /** The account item's `version`; undefined when there is no account item. */
  readAccountVersion(accountId: string): Promise<number | undefined>;
  /** Records `from … to`, ascending, strongly consistent. */
  readRecords(accountId: string, from: number, to: number): Promise<JournalRecord[]>;
  /**
   * The time-keyed copies in key order (`committedAt#sequence`, the sequence order too) up to
   * and including `through`'s key, a page at a time, strongly consistent.
   */
  readTimeCopies(
    accountId: string,
    through: JournalHead,
    start?: string,
  ): Promise<VerifyPage<TimeCopy>>;
  /** The reconciler's checkpoint of the account, if it has one. */
  readCheckpoint(accountId: string): Promise<ChainCheckpoint | undefined>;
  /** Accounts that have a journal, a page at a time (`start`: where the previous page ended). */
  journalAccounts(start?: string): Promise<VerifyPage<string>>;
}

export interface VerifyOptions {
  /** Reads of the head while it trails the account's `version` (projection lag). @default 5 */
  readonly headReads?: number;
  /** The pause between two of them. @default 1 s */
  readonly wait?: () => Promise<void>;
}

export interface Verification {
  readonly accountId: string;
  /** Records checked. */
  readonly records: number;
  /** The first record that does not hold; absent when the whole journal does. */
  readonly broken?: ChainBreak;
}

/**
 * `npm run cli -- verify` (docs/contract.md §27, §31): walks an account's records and their
 * time-keyed copies together, a page at a time, up to the head it started from (a live journal
 * verifies clean): every hash and `balanceAfter`/`availableAfter`, exactly one copy per record
 * keyed `committedAt#sequence` and equal to it, the head at the last record with its hash and at
 * the account's `version`, and the reconciler's checkpoint hash equal to its record's (a
 * rewritten suffix). Reports the first break. Reads only.
 */
export class JournalVerifier {
  private readonly headReads: number;
  private readonly wait: () => Promise<void>;

  constructor(
    private readonly port: JournalVerifyPort,
    options: VerifyOptions = {},
  ) {
    this.headReads = options.headReads ?? 5;
    this.wait = options.wait ?? (() => new Promise((resolve) => setTimeout(resolve, 1000)));
  }

  async verifyAccount(accountId: string): Promise<Verification> {
    const { head, found } = await this.headAtVersion(accountId);
    const last = head?.lastSequence ?? 0;
    const copies =
      head && new CopyWalk((start) => this.port.readTimeCopies(accountId, head, start));
    const checkpoint = await this.port.readCheckpoint(accountId);
    let point: ChainPoint | undefined;
    let records = 0;
    for (let from = 1; from <= last; from += VERIFY_PAGE) {
      const to = Math.min(last, from + VERIFY_PAGE - 1);
      for (const record of await this.port.readRecords(accountId, from, to)) {
        const problem = linkProblem(record, point);
        if (problem) found.push(problem);
        point = pointOf(record);
        records++;
        if (copies) found.push(...(await copies.match(record)));
        if (record.sequence === checkpoint?.sequence) found.push(...rewritten(record, checkpoint));
      }
    }
    if (copies) found.push(...(await copies.rest()));
    if (head) found.push(...headProblems(head, point, checkpoint));
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

  /**
   * The head, read until it stands at the `version` the account had just after it (the projector
   * trails the account by its lag); one that stays behind, or ran past it, is a break.
   */
  private async headAtVersion(accountId: string) {
    let head = await this.port.readHead(accountId);
    const version = await this.port.readAccountVersion(accountId);
    const found: ChainBreak[] = [];
    if (!head) return { head, found };
    const past = (at: number, detail: string) =>
      found.push({ sequence: at + 1, problem: 'sequence', detail });
    if (version === undefined || head.lastSequence > version) {
      past(
        version ?? 0,
        `the journal head stands at ${head.lastSequence}, the account at version ${version ?? 'none'}`,
      );
      return { head, found };
    }
    for (let read = 1; read < this.headReads && head.lastSequence < version; read++) {
      await this.wait();
      head = (await this.port.readHead(accountId)) ?? head;
    }
    if (head.lastSequence < version) {
      past(
        head.lastSequence,
        `the journal head stands at ${head.lastSequence}, the account at version ${version}`,
      );
    }
    return { head, found };
  }
}

/** The checkpoint kept the hash of this record when the reconciler checked it. */
function rewritten(record: JournalRecord, checkpoint: ChainCheckpoint): ChainBreak[] {
  if (checkpoint.hash === undefined || checkpoint.hash === record.hash) return [];
  return [
    {
      sequence: record.sequence,
      problem: 'hash',
      detail: `the reconciler's checkpoint holds hash ${checkpoint.hash} for this record, it now has ${record.hash ?? 'none'} (rewritten since it was checked)`,
      expected: checkpoint.hash,
      actual: record.hash ?? 'none',
    },
  ];
}

/** The head stands at the last record with its hash, and not behind the checkpoint. */
function headProblems(
  head: JournalHead,
  point: ChainPoint | undefined,
  checkpoint: ChainCheckpoint | undefined,
): ChainBreak[] {
  const last = head.lastSequence;
  const found: ChainBreak[] = [];
  if ((point?.sequence ?? 0) !== last) {
    const at = (point?.sequence ?? 0) + 1;
    found.push({ sequence: at, problem: 'sequence', detail: `records ${at}…${last} are missing` });
  } else if (point && head.hash !== point.hash) {
    found.push({
      sequence: last,
      problem: 'hash',
      detail: `the journal head names hash ${head.hash ?? 'none'}, its last record has ${point.hash ?? 'none'}`,
    });
  }
  if (checkpoint && checkpoint.sequence > last) {
    found.push({
      sequence: last + 1,
      problem: 'sequence',
      detail: `the reconciler checked through record ${checkpoint.sequence}, the journal ends at ${last} (truncated)`,
    });
  }
  return found;
}

import { padSequence } from '../../contract/journal';
import { type ChainBreak, hashedContent } from './chain';
import type { JournalRecord } from './model';

/** A page of what `verify` reads in order; `next` is where the following page starts. */
export interface VerifyPage<T> {
  readonly items: readonly T[];
  readonly next?: string;
}

/** A time-keyed copy as stored: its key after the prefix (`committedAt#sequence`) and content. */
export interface TimeCopy {
  readonly key: string;
  readonly record: JournalRecord;
}

/** The key a record's time-keyed copy must have (docs/contract.md §15, §31). */
export const copyKeyOf = (record: JournalRecord): string =>
  `${record.committedAt}#${padSequence(record.sequence)}`;

/**
 * The time-keyed copies read alongside the records (docs/contract.md §31), a page at a time:
 * their key order is the sequence order, so each record meets its own copy next. Exactly one
 * copy per record, keyed by its commit time and sequence, equal to it byte for byte once
 * canonical; a copy met out of place (of a record already passed, or of none) is a break.
 */
export class CopyWalk {
  private page: readonly TimeCopy[] = [];
  private index = 0;
  private next: string | undefined;
  private started = false;

  constructor(private readonly read: (start?: string) => Promise<VerifyPage<TimeCopy>>) {}

  /** The copies up to `record`'s: every problem with them. */
  async match(record: JournalRecord): Promise<ChainBreak[]> {
    const found: ChainBreak[] = [];
    let copies = 0;
    for (let copy = await this.peek(); copy; copy = await this.peek()) {
      if (copy.record.sequence > record.sequence) break;
      this.index++;
      if (copy.record.sequence < record.sequence) {
        found.push(stray(copy));
        continue;
      }
      copies++;
      found.push(...compare(record, copy, copies));
    }
    if (copies === 0) {
      found.push({
        sequence: record.sequence,
        problem: 'sequence',
        detail: `record ${record.sequence} has no time-keyed copy`,
      });
    }
    return found;
  }

  /** Copies left after the last record: copies of records that do not exist. */
  async rest(): Promise<ChainBreak[]> {
    const found: ChainBreak[] = [];
    for (let copy = await this.peek(); copy; copy = await this.peek()) {
      this.index++;
      found.push(stray(copy));
    }
    return found;
  }

  private async peek(): Promise<TimeCopy | undefined> {
    while (this.index >= this.page.length) {
      if (this.started && this.next === undefined) return undefined;
      const page = await this.read(this.next);
      this.started = true;
      this.page = page.items;
      this.index = 0;
      this.next = page.next;
    }
    return this.page[this.index];
  }
}

function compare(record: JournalRecord, copy: TimeCopy, nth: number): ChainBreak[] {
  const at = { sequence: record.sequence, problem: 'hash' as const };
  if (nth > 1) {
    return [{ ...at, detail: `record ${record.sequence} has more than one time-keyed copy` }];
  }
  const found: ChainBreak[] = [];
  if (copy.key !== copyKeyOf(record)) {
    found.push({
      ...at,
      detail: `the time-keyed copy of record ${record.sequence} is keyed ${copy.key}, not ${copyKeyOf(record)}`,
    });
  }
  if (hashedContent(copy.record) + copy.record.hash !== hashedContent(record) + record.hash) {
    found.push({
      ...at,
      detail: `the time-keyed copy of record ${record.sequence} differs from the record`,
    });
  }
  return found;
}

const stray = (copy: TimeCopy): ChainBreak => ({
  sequence: copy.record.sequence,
  problem: 'hash',
  detail: `a time-keyed copy of record ${copy.record.sequence} stands out of place (${copy.key}): a duplicate, or a copy of no record`,
});

import { JOURNAL_EVENT_TYPE, journalEventId, padSequence } from '../../contract/journal';
import type { JournalRecord } from './model';

/**
 * The outbound CloudEvent of one journal record (docs/contract.md §15): published at least
 * once, possibly out of order; consumers dedupe by `id` and detect gaps by `sequence` per
 * `subject`.
 */
export interface JournalEvent {
  readonly specversion: '1.0';
  /** `<accountId>:<sequence zero-padded to 16>`. */
  readonly id: string;
  /** `urn:idempotent-ledger:<stage>`. */
  readonly source: string;
  readonly type: typeof JOURNAL_EVENT_TYPE;
  /** The account. */
  readonly subject: string;
  /** The CloudEvents sequence extension: zero-padded, so it orders as text. */
  readonly sequence: string;
  /** The record's committedAt. */
  readonly time: string;
  /** The record itself; `data.sequence` is the number. */
  readonly data: JournalRecord;
}

export function journalEvent(record: JournalRecord, source: string): JournalEvent {
  return {
    specversion: '1.0',
    id: journalEventId(record.accountId, record.sequence),
    source,
    type: JOURNAL_EVENT_TYPE,
    subject: record.accountId,
    sequence: padSequence(record.sequence),
    time: record.committedAt,
    data: record,
  };
}

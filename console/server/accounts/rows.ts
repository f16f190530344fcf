import type { HoldRecord } from '../../../functions/domain/accounts/hold-record';
import { holdStatusAt } from '../../../functions/domain/accounts/hold-record';
import { legCurrency } from '../../../functions/domain/accounts/ledger-currencies';
import type { LedgerTransactionRecord } from '../../../functions/domain/accounts/ledger-transaction-record';
import type { AccountRecord, LedgerEntry } from '../../../functions/domain/accounts/model';
import type { EventSourceView } from '../../../functions/domain/gaps/port';
import { EMPTY_EVENT_SOURCE, overdueGaps } from '../../../functions/domain/gaps/source-state';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import type {
  AccountDetail,
  AccountSummary,
  EntryRow,
  EventSourceRow,
  GapRow,
  HoldRow,
  JournalRow,
  LegRow,
} from '../../shared/api';

/**
 * From the project's own readers' records to the console's rows. Fields of features that may
 * not be in this build (closedThrough, creditIntake, an entry's status, a record's hash) are
 * read from the raw item when present, so the pages show them once the feature lands.
 */

type Raw = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** `{ key: value }` when the value is there, `{}` otherwise (exactOptionalPropertyTypes-safe). */
function some<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

export function accountSummary(account: AccountRecord): AccountSummary {
  return {
    id: account.id,
    ownerId: account.ownerId,
    ...some('name', account.name),
    currency: account.currency,
    balance: account.balance,
    available: account.available,
    status: account.status,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}

export function accountDetail(account: AccountRecord, raw: Raw): AccountDetail {
  return {
    ...accountSummary(account),
    version: account.version,
    overdraftLimit: account.overdraftLimit,
    ...some('spendable', num(raw.spendable)),
    ...some('creditIntake', text(raw.creditIntake)),
    ...some('closedThrough', text(raw.closedThrough)),
    ...some('closedAt', text(raw.closedAt)),
  };
}

export function journalRow(record: JournalRecord): JournalRow {
  const raw = record as unknown as Raw;
  return {
    sequence: record.sequence,
    kind: record.kind,
    balanceDelta: record.balanceDelta,
    availableDelta: record.availableDelta,
    balanceAfter: record.balanceAfter,
    availableAfter: record.availableAfter,
    committedAt: record.committedAt,
    ...some('entryId', record.entryId),
    ...some('holdId', record.holdId),
    ...some('hash', text(raw.hash)),
  };
}

/** The legs of a ledger transaction, each with its currency resolved (§35). */
export function legRows(record: LedgerTransactionRecord): LegRow[] {
  return record.legs.map((leg) => ({
    accountId: leg.accountId,
    direction: leg.direction,
    amount: leg.amount,
    currency: legCurrency(record, leg),
  }));
}

/** An entry's row; a ledger leg's carries its transaction's legs when they were read. */
export function entryRow(entry: LedgerEntry, legs?: readonly LegRow[]): EntryRow {
  const raw = entry as unknown as Raw;
  return {
    id: entry.id,
    type: entry.type,
    amount: entry.amount,
    createdAt: entry.createdAt,
    ...some('status', text(raw.status)),
    ...some('effectiveAt', text(raw.effectiveAt)),
    ...some('reference', entry.reference),
    ...some('transferId', entry.transferId),
    ...some('ledgerTransactionId', entry.ledgerTransactionId),
    ...some('legs', legs),
  };
}

export function holdRow(hold: HoldRecord, now: Date): HoldRow {
  return {
    id: hold.id,
    amount: hold.amount,
    capturedAmount: hold.capturedAmount,
    status: holdStatusAt(hold, now),
    expiresAt: hold.expiresAt,
    createdAt: hold.createdAt,
  };
}

/** A source's open gaps with their times; `overdue` as the sweeper counts `OverdueGaps`. */
export function gapRows(
  source: Pick<EventSourceView, 'gaps' | 'gapDetails'>,
  now: Date,
  refetchAfterSeconds: number,
): GapRow[] {
  const details = new Map(source.gapDetails.map((d) => [d.number, d]));
  return source.gaps.map((number) => {
    const detail = details.get(number);
    const overdue =
      detail !== undefined &&
      overdueGaps({ ...EMPTY_EVENT_SOURCE, gapDetails: [detail] }, now, refetchAfterSeconds) === 1;
    return {
      number,
      openedAt: detail?.openedAt ?? '',
      ...some('refetchRequestedAt', detail?.refetchRequestedAt),
      overdue,
    };
  });
}

export function sourceRow(
  source: EventSourceView,
  now: Date,
  refetchAfterSeconds: number,
): EventSourceRow {
  return {
    source: source.source,
    lastSequence: source.lastSequence,
    gapsTruncated: source.gapsTruncated,
    gaps: gapRows(source, now, refetchAfterSeconds),
    waived: source.waived.map((w) => ({ ...w })),
  };
}

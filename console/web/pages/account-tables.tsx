import type {
  EntryRow,
  HoldRow,
  JournalRow,
  LegRow,
  PendingCreditRow,
  PendingCredits,
} from '../../shared/api';
import { age, money, when } from '../components/format';
import { Table } from '../components/table';

export function JournalTable(props: { records: readonly JournalRow[]; currency: string }) {
  const m = (n: number) => money(n, props.currency);
  const newestFirst = [...props.records].reverse();
  return (
    <Table
      testId="journal-table"
      caption={`Journal, newest first (${props.records.length} record(s) shown)`}
      rows={newestFirst}
      rowKey={(r) => String(r.sequence)}
      empty="No journal records yet."
      columns={[
        { label: '#', cell: (r) => r.sequence, numeric: true },
        { label: 'Kind', cell: (r) => r.kind },
        { label: 'Balance Δ', cell: (r) => m(r.balanceDelta), numeric: true },
        { label: 'Available Δ', cell: (r) => m(r.availableDelta), numeric: true },
        { label: 'Balance after', cell: (r) => m(r.balanceAfter), numeric: true },
        { label: 'Available after', cell: (r) => m(r.availableAfter), numeric: true },
        { label: 'Committed', cell: (r) => when(r.committedAt) },
        {
          label: 'Hash',
          cell: (r) => (r.hash ? <code title={r.hash}>{r.hash.slice(0, 12)}…</code> : '—'),
        },
      ]}
    />
  );
}

/** A ledger transaction's legs, each in its own currency (docs/contract.md §35). */
function Legs(props: { legs: readonly LegRow[] }) {
  return (
    <ul className="legs" data-testid="entry-legs">
      {props.legs.map((leg) => (
        <li key={leg.accountId}>
          {leg.direction === 'debit' ? '−' : '+'}
          {money(leg.amount, leg.currency)} <code>{leg.accountId.slice(0, 8)}</code>
        </li>
      ))}
    </ul>
  );
}

export function EntriesTable(props: { entries: readonly EntryRow[]; currency: string }) {
  return (
    <Table
      testId="entries-table"
      caption={`Entries, newest first (${props.entries.length} shown)`}
      rows={props.entries}
      rowKey={(e) => e.id}
      empty="No entries yet."
      columns={[
        { label: 'Entry', cell: (e) => <code>{e.id}</code> },
        { label: 'Type', cell: (e) => e.type },
        { label: 'Amount', cell: (e) => money(e.amount, props.currency), numeric: true },
        { label: 'Status', cell: (e) => e.status ?? 'posted' },
        { label: 'Created', cell: (e) => when(e.createdAt) },
        { label: 'Effective', cell: (e) => when(e.effectiveAt ?? e.createdAt) },
        {
          label: 'Reference',
          cell: (e) => e.reference ?? e.transferId ?? e.ledgerTransactionId ?? '—',
        },
        { label: 'Legs', cell: (e) => (e.legs ? <Legs legs={e.legs} /> : '—') },
      ]}
    />
  );
}

export function HoldsTable(props: { holds: readonly HoldRow[]; currency: string }) {
  const m = (n: number) => money(n, props.currency);
  return (
    <Table
      testId="holds-table"
      caption={`Holds, newest first (${props.holds.length} shown)`}
      rows={props.holds}
      rowKey={(h) => h.id}
      empty="No holds."
      columns={[
        { label: 'Hold', cell: (h) => <code>{h.id}</code> },
        { label: 'Amount', cell: (h) => m(h.amount), numeric: true },
        { label: 'Captured', cell: (h) => m(h.capturedAmount), numeric: true },
        { label: 'Status', cell: (h) => h.status },
        { label: 'Expires', cell: (h) => when(h.expiresAt) },
        { label: 'Created', cell: (h) => when(h.createdAt) },
      ]}
    />
  );
}

/** A deferred account's pending credits (docs/contract.md §24), oldest first. */
export function PendingCreditsTable(props: { pending: PendingCredits; currency: string }) {
  const { items, total } = props.pending;
  return (
    <>
      <Table<PendingCreditRow>
        testId="pending-credits-table"
        caption={`Pending credits, oldest first (${items.length} of ${total} shown)`}
        rows={items}
        rowKey={(p) => p.entryId}
        empty="No pending credits: every accepted credit is posted."
        columns={[
          { label: 'Entry', cell: (p) => <code>{p.entryId}</code> },
          { label: 'Type', cell: (p) => p.type },
          { label: 'Amount', cell: (p) => money(p.amount, props.currency), numeric: true },
          { label: 'Accepted', cell: (p) => when(p.acceptedAt) },
          { label: 'Effective', cell: (p) => when(p.effectiveAt) },
          { label: 'Age', cell: (p) => age(p.ageSeconds), numeric: true },
          { label: 'Reference', cell: (p) => p.reference ?? '—' },
        ]}
      />
      {total > items.length && (
        <p class="note" data-testid="pending-credits-more">
          {total - items.length} more pending credit(s) wait behind these {items.length}.
        </p>
      )}
    </>
  );
}

import type { EntryRow, HoldRow, JournalRow, OptionalRows } from '../../shared/api';
import { money, when } from '../components/format';
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

/** Items of a feature this console does not know field by field: every field, as stored. */
export function OptionalTable(props: { caption: string; rows: OptionalRows }) {
  const fields = [...new Set(props.rows.flatMap((row) => Object.keys(row)))].slice(0, 10);
  return (
    <Table
      caption={props.caption}
      rows={props.rows}
      rowKey={(row) => JSON.stringify(row)}
      empty="None."
      columns={fields.map((field) => ({
        label: field,
        cell: (row: Readonly<Record<string, unknown>>) => {
          const value = row[field];
          return value === undefined
            ? '—'
            : typeof value === 'string'
              ? value
              : JSON.stringify(value);
        },
      }))}
    />
  );
}

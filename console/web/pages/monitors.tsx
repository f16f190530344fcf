import type { MonitorRow } from '../../shared/api';
import { OPERATOR_SIGNS } from '../components/chart-data';
import { money, when } from '../components/format';
import { Table } from '../components/table';

/** An account's balance monitors (docs/contract.md §28), in words and in its currency. */
export function MonitorsTable(props: { monitors: readonly MonitorRow[]; currency: string }) {
  return (
    <Table
      testId="monitors-table"
      caption={`Balance monitors (${props.monitors.length}), drawn on the chart as dotted lines`}
      rows={props.monitors}
      rowKey={(m) => m.id}
      empty="No monitors."
      columns={[
        {
          label: 'Condition',
          cell: (m) => `${m.field} ${OPERATOR_SIGNS[m.operator]} ${money(m.value, props.currency)}`,
        },
        { label: 'Description', cell: (m) => m.description ?? '—' },
        { label: 'Now', cell: (m) => (m.state === 'true' ? 'true' : 'false') },
        { label: 'Since', cell: (m) => when(m.stateSince) },
        { label: 'Created', cell: (m) => when(m.createdAt) },
        { label: 'Monitor', cell: (m) => <code>{m.id}</code> },
      ]}
    />
  );
}

import { CONSOLE_ROUTES, type FindingRow, type FindingsPage as Page } from '../../shared/api';
import { when } from '../components/format';
import { Load, useLoad } from '../components/load';
import { Table } from '../components/table';

/** What the reconciler found (docs/contract.md §19), newest first. */
export function FindingsPage() {
  const [loaded] = useLoad<Page>(CONSOLE_ROUTES.findings);
  return (
    <section aria-labelledby="findings-title">
      <h1 id="findings-title">Reconciliation findings</h1>
      <Load loaded={loaded} what="the findings">
        {(page) => (
          <Table<FindingRow>
            testId="findings-table"
            caption={`${page.findings.length} finding(s), newest first`}
            rows={page.findings}
            rowKey={(f) => `${f.accountId}|${f.check}|${f.sequence ?? ''}`}
            empty="No findings: the books agree with themselves."
            columns={[
              { label: 'Detected', cell: (f) => when(f.detectedAt) },
              { label: 'Check', cell: (f) => f.check },
              {
                label: 'Account',
                cell: (f) => (
                  <a href={`#/accounts/${encodeURIComponent(f.accountId)}`}>{f.accountId}</a>
                ),
              },
              { label: 'Record', cell: (f) => f.sequence ?? '—', numeric: true },
              { label: 'Expected', cell: (f) => f.expected, numeric: true },
              { label: 'Actual', cell: (f) => f.actual, numeric: true },
              { label: 'Detail', cell: (f) => f.detail },
            ]}
          />
        )}
      </Load>
    </section>
  );
}

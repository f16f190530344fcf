import { CONSOLE_ROUTES, type IntakeLagRow, type IntakePage as Page } from '../../shared/api';
import { age, when } from '../components/format';
import { Load, useLoad } from '../components/load';
import { Table } from '../components/table';

/** How far deferred credits trail (docs/contract.md §24): every deferred account, worst first. */
export function IntakePage() {
  const [loaded] = useLoad<Page>(CONSOLE_ROUTES.intake);
  return (
    <section aria-labelledby="intake-title">
      <h1 id="intake-title">Intake lag</h1>
      <Load loaded={loaded} what="the intake">
        {(page) => <IntakeView page={page} />}
      </Load>
    </section>
  );
}

function IntakeView(props: { page: Page }) {
  const { accounts, complete, scanned, readAt } = props.page;
  const pending = accounts.reduce((sum, a) => sum + a.pending, 0);
  return (
    <>
      {accounts.length > 0 && (
        <p data-testid="intake-summary">
          {pending === 0
            ? `Nothing pending: ${accounts.length} deferred account(s), every accepted credit posted.`
            : `${pending} pending credit(s) in ${accounts.filter((a) => a.pending > 0).length} of ${accounts.length} deferred account(s); ages as of ${when(readAt)}.`}
        </p>
      )}
      <Table<IntakeLagRow>
        testId="intake-table"
        caption="Deferred accounts, the oldest pending credit first"
        rows={accounts}
        rowKey={(a) => a.accountId}
        empty="No deferred accounts: every account takes its credits directly."
        columns={[
          {
            label: 'Account',
            cell: (a) => (
              <a href={`#/accounts/${encodeURIComponent(a.accountId)}`}>{a.accountId}</a>
            ),
          },
          { label: 'Owner', cell: (a) => a.ownerId },
          { label: 'Intake', cell: (a) => a.creditIntake },
          { label: 'Pending', cell: (a) => a.pending, numeric: true },
          { label: 'Oldest accepted', cell: (a) => when(a.oldestAt) },
          { label: 'Oldest age', cell: (a) => age(a.oldestAgeSeconds), numeric: true },
        ]}
      />
      <p class="note">
        {complete
          ? `Read ${scanned} item(s): the whole table.`
          : `Read the first ${scanned} item(s) of the table; more deferred accounts may exist.`}
      </p>
    </>
  );
}

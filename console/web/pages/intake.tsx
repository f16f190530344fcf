import { CONSOLE_ROUTES, type IntakePage as Page } from '../../shared/api';
import { when } from '../components/format';
import { Load, useLoad } from '../components/load';
import { Table } from '../components/table';

/** How far deferred credits trail (deferred credits, a later feature), or why there is nothing to show. */
export function IntakePage() {
  const [loaded] = useLoad<Page>(CONSOLE_ROUTES.intake);
  return (
    <section aria-labelledby="intake-title">
      <h1 id="intake-title">Intake lag</h1>
      <Load loaded={loaded} what="the intake">
        {(page) =>
          page.enabled ? (
            <Table
              testId="intake-table"
              caption="Deferred accounts with pending credits"
              rows={page.accounts}
              rowKey={(a) => a.accountId}
              empty="No pending credits: every deferred credit is posted."
              columns={[
                { label: 'Account', cell: (a) => a.accountId },
                { label: 'Pending', cell: (a) => a.pending, numeric: true },
                { label: 'Oldest', cell: (a) => when(a.oldestAt) },
              ]}
            />
          ) : (
            <p class="empty" data-testid="intake-disabled">
              Not enabled. {page.reason}
            </p>
          )
        }
      </Load>
    </section>
  );
}

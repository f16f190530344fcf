import { CONSOLE_ROUTES, type AccountPage as Page } from '../../shared/api';
import { BalanceChart } from '../components/chart';
import { money, when } from '../components/format';
import { Load, useLoad } from '../components/load';
import { EntriesTable, HoldsTable, JournalTable, PendingCreditsTable } from './account-tables';
import { EventSources } from './event-sources';
import { MonitorsTable } from './monitors';

/** One account: its figures, its balance over time, its journal, entries, holds and sources. */
export function AccountPage(props: { accountId: string }) {
  const [loaded, reload] = useLoad<Page>(CONSOLE_ROUTES.account(props.accountId));
  return (
    <section aria-labelledby="account-title">
      <p>
        <a href="#/accounts">← Accounts</a>
      </p>
      <h1 id="account-title">Account {props.accountId}</h1>
      <Load loaded={loaded} what="the account">
        {(page) => <AccountView page={page} reload={reload} />}
      </Load>
    </section>
  );
}

function AccountView(props: { page: Page; reload: () => void }) {
  const { account, journal } = props.page;
  const m = (n: number) => money(n, account.currency);
  const facts: [string, string][] = [
    ['Name', account.name ?? '—'],
    ['Owner', account.ownerId],
    ['Currency', account.currency],
    ['Balance', m(account.balance)],
    ['Available', m(account.available)],
    ['Held', m(account.balance - account.available)],
    ['Version', String(account.version)],
    [
      'Status',
      account.closedAt ? `${account.status} (since ${when(account.closedAt)})` : account.status,
    ],
    ['Overdraft limit', m(account.overdraftLimit)],
    ['Credit intake', account.creditIntake ?? 'direct'],
    ...(account.closedThrough
      ? ([['Closed through', when(account.closedThrough)]] as [string, string][])
      : []),
    ['Created', when(account.createdAt)],
    ['Updated', when(account.updatedAt)],
  ];
  return (
    <>
      <dl class="facts" data-testid="account-facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd data-field={term}>{value}</dd>
          </div>
        ))}
      </dl>
      <h2>Balance over time</h2>
      <BalanceChart records={journal} monitors={props.page.monitors} currency={account.currency} />
      <h2>Event sources and gaps</h2>
      <EventSources accountId={account.id} sources={props.page.sources} reload={props.reload} />
      <h2>Journal</h2>
      <JournalTable records={journal} currency={account.currency} />
      <h2>Entries</h2>
      <EntriesTable entries={props.page.entries} currency={account.currency} />
      <h2>Holds</h2>
      <HoldsTable holds={props.page.holds} currency={account.currency} />
      {(account.creditIntake === 'deferred' || props.page.pendingCredits.total > 0) && (
        <>
          <h2>Pending credits</h2>
          <PendingCreditsTable pending={props.page.pendingCredits} currency={account.currency} />
        </>
      )}
      {props.page.monitors.length > 0 && (
        <>
          <h2>Monitors</h2>
          <MonitorsTable monitors={props.page.monitors} currency={account.currency} />
        </>
      )}
    </>
  );
}

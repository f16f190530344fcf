import { useState } from 'preact/hooks';
import { type AccountSearch, type AccountSummary, CONSOLE_ROUTES } from '../../shared/api';
import { money, when } from '../components/format';
import { Load, useLoad } from '../components/load';
import { Table } from '../components/table';

const COLUMNS = [
  {
    label: 'Account',
    cell: (a: AccountSummary) => <a href={`#/accounts/${encodeURIComponent(a.id)}`}>{a.id}</a>,
  },
  { label: 'Name', cell: (a: AccountSummary) => a.name ?? '—' },
  { label: 'Owner', cell: (a: AccountSummary) => a.ownerId },
  { label: 'Balance', cell: (a: AccountSummary) => money(a.balance, a.currency), numeric: true },
  {
    label: 'Available',
    cell: (a: AccountSummary) => money(a.available, a.currency),
    numeric: true,
  },
  { label: 'Status', cell: (a: AccountSummary) => a.status },
  { label: 'Created', cell: (a: AccountSummary) => when(a.createdAt) },
];

/** Find an account by id or owner; without a query, the most recent accounts. */
export function AccountsPage() {
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const path = query
    ? `${CONSOLE_ROUTES.accounts}?q=${encodeURIComponent(query)}`
    : CONSOLE_ROUTES.accounts;
  const [loaded] = useLoad<AccountSearch>(path);
  return (
    <section aria-labelledby="accounts-title">
      <h1 id="accounts-title">Accounts</h1>
      <search>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setQuery(draft.trim());
          }}
        >
          <label for="account-query">Account id or owner id</label>
          <input
            id="account-query"
            name="q"
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
            placeholder="e.g. 8d5484bc-… or alice"
          />
          <button type="submit">Find</button>
          {query && (
            <button
              type="button"
              onClick={() => {
                setDraft('');
                setQuery('');
              }}
            >
              Show recent
            </button>
          )}
        </form>
      </search>
      <Load loaded={loaded} what="accounts">
        {(search) => (
          <>
            <Table
              testId="accounts-table"
              caption={query ? `Accounts matching "${query}"` : 'Most recent accounts'}
              columns={COLUMNS}
              rows={search.items}
              rowKey={(a) => a.id}
              empty={
                query ? `No account has the id or owner "${query}".` : 'There are no accounts yet.'
              }
            />
            <p class="note">
              {search.complete
                ? `Read ${search.scanned} item(s): the whole table.`
                : `Read the first ${search.scanned} item(s) of the table; more accounts may exist.`}
            </p>
          </>
        )}
      </Load>
    </section>
  );
}

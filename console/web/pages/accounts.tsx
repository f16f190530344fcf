import { useEffect, useState } from 'preact/hooks';
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

/** The `q` of the page's address (`#/accounts?q=alice`): a search can be linked and reloaded. */
function queryInUrl(): string {
  return new URLSearchParams(location.hash.split('?')[1] ?? '').get('q')?.trim() ?? '';
}

/** Shows `q` in the address bar (replacing the entry: Back leaves the page, as before). */
function putQueryInUrl(q: string): void {
  const hash = q ? `#/accounts?q=${encodeURIComponent(q)}` : '#/accounts';
  history.replaceState(null, '', `${location.pathname}${hash}`);
}

/**
 * Find an account by id, owner or name prefix (any case); without a query, the most recent
 * accounts. An empty answer from an incomplete read never says that nothing exists.
 */
export function AccountsPage() {
  const [draft, setDraft] = useState(queryInUrl);
  const [query, setQueryState] = useState(queryInUrl);
  const setQuery = (q: string) => {
    putQueryInUrl(q);
    setQueryState(q);
  };
  // A link or typed address with another `?q=` while the page is open: follow it.
  useEffect(() => {
    const follow = () => {
      const q = queryInUrl();
      setDraft(q);
      setQueryState(q);
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
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
          <label for="account-query">Account id, owner id or name</label>
          <input
            id="account-query"
            name="q"
            value={draft}
            onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
            placeholder="e.g. 8d5484bc-…, alice or Savings"
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
              empty={emptyText(query, search.complete, search.scanned)}
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

/** What an empty answer says: absence only when the whole table was read. */
function emptyText(query: string, complete: boolean, scanned: number): string {
  if (!complete) {
    return `None found in the first ${scanned} item(s) read; the table has more, so accounts${query ? ` matching "${query}"` : ''} may exist.`;
  }
  return query
    ? `No account has the id or owner "${query}", or a name starting with it.`
    : 'There are no accounts yet.';
}

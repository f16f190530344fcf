import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { adoptToken } from './api';
import { useFollowHash } from './components/follow-hash';
import { Notices } from './components/notice';
import { AccountPage } from './pages/account';
import { AccountsPage } from './pages/accounts';
import { DeadLettersPage } from './pages/dead-letters';
import { FindingsPage } from './pages/findings';
import { GapsPage } from './pages/gaps';
import { IntakePage } from './pages/intake';
import { SearchPage } from './pages/search';
import { WebhooksPage } from './pages/webhooks';
import './styles.css';

/** The pages, by hash route: the server serves one document, so a reload keeps the page. */
const PAGES = [
  { route: 'accounts', label: 'Accounts' },
  { route: 'search', label: 'Search' },
  { route: 'dead-letters', label: 'Dead-letter queues' },
  { route: 'gaps', label: 'Overdue gaps' },
  { route: 'findings', label: 'Reconciliation findings' },
  { route: 'intake', label: 'Intake lag' },
  { route: 'webhooks', label: 'Webhooks' },
] as const;

function useRoute(): string[] {
  // The route is the hash's path; a page reads its own query (`?q=…`) from the hash itself.
  const read = () => (location.hash.replace(/^#\/?/, '').split('?')[0] || 'accounts').split('/');
  const [route, setRoute] = useState(read);
  useFollowHash(() => setRoute(read()));
  return route.map(decodeSegment);
}

/** A route segment as typed; a malformed escape stays as it is (the server then says why). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function Page(props: { route: string[] }) {
  const [name, id] = props.route;
  switch (name) {
    case 'accounts':
      return id ? <AccountPage accountId={id} /> : <AccountsPage />;
    case 'search':
      return <SearchPage />;
    case 'dead-letters':
      return <DeadLettersPage />;
    case 'gaps':
      return <GapsPage />;
    case 'findings':
      return <FindingsPage />;
    case 'intake':
      return <IntakePage />;
    case 'webhooks':
      return <WebhooksPage />;
    default:
      return <p role="alert">There is no page "{name}".</p>;
  }
}

function App() {
  const route = useRoute();
  useEffect(() => {
    const label = PAGES.find((p) => p.route === route[0])?.label ?? 'Console';
    document.title = `${route[1] ? `Account ${route[1]}` : label} · ledger console`;
  }, [route]);
  return (
    <>
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header>
        <p class="brand">idempotent-ledger · operator console</p>
        <nav aria-label="Console pages">
          <ul>
            {PAGES.map((p) => (
              <li key={p.route}>
                <a href={`#/${p.route}`} aria-current={route[0] === p.route ? 'page' : undefined}>
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Notices />
        <Page route={route} />
      </main>
    </>
  );
}

adoptToken();
const root = document.getElementById('app');
if (root) render(<App />, root);

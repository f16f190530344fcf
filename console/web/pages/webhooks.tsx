import { useState } from 'preact/hooks';
import { CONSOLE_ROUTES } from '../../shared/api';
import {
  type ConsoleWebhooks,
  type FailedDeliveriesOf,
  type FailedDeliveryRow,
  WEBHOOKS_CURSOR_PARAM,
  WEBHOOKS_ENDPOINT_PARAM,
  WEBHOOKS_OWNER_PARAM,
  type WebhookEndpointRow,
} from '../../shared/webhooks';
import { useFollowHash } from '../components/follow-hash';
import { when } from '../components/format';
import { Empty, Load, useLoad } from '../components/load';
import { Table } from '../components/table';

const accountLink = (id: string) => <a href={`#/accounts/${encodeURIComponent(id)}`}>{id}</a>;

const ENDPOINT_COLUMNS = [
  { label: 'Endpoint', cell: (e: WebhookEndpointRow) => e.id },
  { label: 'URL', cell: (e: WebhookEndpointRow) => e.url },
  { label: 'Events', cell: (e: WebhookEndpointRow) => e.events.join(', ') },
  {
    label: 'Accounts',
    cell: (e: WebhookEndpointRow) =>
      e.accountIds === null ? 'all of the owner’s' : e.accountIds.join(', '),
  },
  { label: 'Status', cell: (e: WebhookEndpointRow) => e.status },
  { label: 'Created', cell: (e: WebhookEndpointRow) => when(e.createdAt) },
];

const FAILED_COLUMNS = [
  { label: 'Event', cell: (d: FailedDeliveryRow) => d.eventId },
  { label: 'Type', cell: (d: FailedDeliveryRow) => d.eventType },
  { label: 'Account', cell: (d: FailedDeliveryRow) => accountLink(d.accountId) },
  { label: 'Attempts', cell: (d: FailedDeliveryRow) => d.attempts, numeric: true },
  { label: 'Last HTTP status', cell: (d: FailedDeliveryRow) => d.lastStatus ?? 'none' },
  { label: 'Last error', cell: (d: FailedDeliveryRow) => d.lastError ?? '—' },
  {
    label: 'Last attempt',
    cell: (d: FailedDeliveryRow) => (d.lastAttemptAt ? when(d.lastAttemptAt) : '—'),
  },
];

/** The page's query in its address (`#/webhooks?owner=alice&endpoint=…&cursor=…`). */
const paramsInUrl = () => new URLSearchParams(location.hash.split('?')[1] ?? '');

function putParamsInUrl(params: URLSearchParams): void {
  const query = params.toString();
  history.replaceState(null, '', `${location.pathname}#/webhooks${query ? `?${query}` : ''}`);
}

/**
 * An owner's webhook endpoints and their failed deliveries (docs/console.md, §32), read from
 * the table's webhooks stores; the owner, endpoint and page are in the address.
 */
export function WebhooksPage() {
  const [params, setParamsState] = useState(paramsInUrl);
  const setParams = (next: URLSearchParams) => {
    putParamsInUrl(next);
    setParamsState(next);
  };
  useFollowHash(() => setParamsState(paramsInUrl()));
  const query = params.toString();
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <OwnerForm
        key={query}
        owner={params.get(WEBHOOKS_OWNER_PARAM) ?? ''}
        onOwner={(owner) => setParams(new URLSearchParams({ [WEBHOOKS_OWNER_PARAM]: owner }))}
      />
      {params.has(WEBHOOKS_OWNER_PARAM) ? (
        <Listing query={query} params={params} onParams={setParams} />
      ) : (
        <Empty>Give an owner (principal) to list its webhook endpoints.</Empty>
      )}
    </section>
  );
}

function OwnerForm(props: { owner: string; onOwner: (owner: string) => void }) {
  const [owner, setOwner] = useState(props.owner);
  return (
    <form
      class="search-box"
      onSubmit={(e) => {
        e.preventDefault();
        props.onOwner(owner.trim());
      }}
    >
      <div class="field">
        <label for="webhooks-owner">Owner (principal)</label>
        <input
          id="webhooks-owner"
          value={owner}
          onInput={(e) => setOwner((e.target as HTMLInputElement).value)}
        />
      </div>
      <button type="submit" class="primary">
        List webhooks
      </button>
    </form>
  );
}

function Listing(props: {
  query: string;
  params: URLSearchParams;
  onParams: (params: URLSearchParams) => void;
}) {
  const [loaded] = useLoad<ConsoleWebhooks>(`${CONSOLE_ROUTES.webhooks}?${props.query}`);
  const show = (endpointId: string | null, cursor: string | null) => {
    const next = new URLSearchParams({
      [WEBHOOKS_OWNER_PARAM]: props.params.get(WEBHOOKS_OWNER_PARAM) ?? '',
    });
    if (endpointId !== null) next.set(WEBHOOKS_ENDPOINT_PARAM, endpointId);
    if (cursor !== null) next.set(WEBHOOKS_CURSOR_PARAM, cursor);
    props.onParams(next);
  };
  return (
    <Load loaded={loaded} what="the webhooks">
      {(found) => (
        <>
          <h2>Endpoints of {found.owner}</h2>
          <Table
            testId="webhook-endpoints"
            caption={`Webhook endpoints of ${found.owner}, oldest first`}
            columns={ENDPOINT_COLUMNS}
            rows={found.endpoints}
            rowKey={(e) => e.id}
            empty={`${found.owner} has no webhook endpoint.`}
          />
          {props.params.has(WEBHOOKS_ENDPOINT_PARAM) && (
            <button type="button" onClick={() => show(null, null)}>
              All endpoints
            </button>
          )}
          {found.failed.map((of) => (
            <Failed key={of.endpointId} of={of} onPage={(cursor) => show(of.endpointId, cursor)} />
          ))}
        </>
      )}
    </Load>
  );
}

function Failed(props: { of: FailedDeliveriesOf; onPage: (cursor: string | null) => void }) {
  const { of } = props;
  return (
    <>
      <h2>Failed deliveries of {of.endpointId}</h2>
      <Table
        testId={`webhook-failed-${of.endpointId}`}
        caption={`Failed deliveries of ${of.endpointId}, newest first`}
        columns={FAILED_COLUMNS}
        rows={of.items}
        rowKey={(d) => d.id}
        empty={`No failed delivery on this page${of.nextCursor ? '; the next page may have more' : ''}.`}
      />
      <button type="button" onClick={() => props.onPage(null)}>
        This endpoint only
      </button>
      {of.nextCursor && (
        <button type="button" onClick={() => props.onPage(of.nextCursor)}>
          Next page
        </button>
      )}
    </>
  );
}

import { Health } from '../../schemas/health';
import { named, type RouteDocs, type RouteTable } from '../spec';

/** The health check (docs/contract.md §5): public, for load balancers and the smoke test. */
export const HEALTH_ROUTES = {
  getHealth: {
    method: 'GET',
    path: '/v1/health',
    tag: 'health',
    public: {
      reason:
        'The health check is for load balancers and uptime checks, which hold no credentials; it answers only whether the table answers, and is throttled like the callbacks route.',
      throttle: 'callback-limits',
    },
    response: { status: 200, body: named('Health', Health) },
    problems: ['unavailable'],
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of HEALTH_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const healthRouteDocs = (): RouteDocs<typeof HEALTH_ROUTES> => ({
  getHealth: {
    summary: 'Whether the service can serve requests',
    description:
      'No principal. 200 once the ledger table answers a read, else 503 unavailable with ' +
      'Retry-After: what a load balancer or an uptime check calls.',
    response: 'The table answers',
  },
});

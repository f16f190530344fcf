import type { RouteTable } from '../spec';

/** The OpenAPI document (docs/contract.md §5): public, built on first request. */
export const DOCUMENT_ROUTES = {
  getOpenApi: {
    method: 'GET',
    path: '/v1/openapi.json',
    summary: 'This OpenAPI document',
    tag: 'document',
    public: {
      reason:
        'The OpenAPI document is public by contract (§5): it holds no data, only the API description and retention windows, and has its own low throttle.',
      // Static and public: a client needs it rarely, and a low limit keeps anonymous traffic
      // from costing invocations.
      throttle: { rateLimit: 10, burstLimit: 20 },
    },
    raw: true,
    response: { status: 200, description: 'This document' },
  },
} as const satisfies RouteTable;

import * as z from 'zod';
import { lazySchema } from '../../schemas/lazy';
import type { RouteDocs, RouteTable } from '../spec';

/**
 * What documents the API (docs/contract.md §3, §5): the OpenAPI document and the page of each
 * problem type, both public, built from the specs and the problem table on first request.
 */
export const DOCUMENT_ROUTES = {
  getOpenApi: {
    method: 'GET',
    path: '/v1/openapi.json',
    tag: 'document',
    public: {
      reason:
        'The OpenAPI document is public by contract (§5): it holds no data, only the API description and retention windows, and has its own low throttle.',
      // Static and public: a client needs it rarely, and a low limit keeps anonymous traffic
      // from costing invocations.
      throttle: { rateLimit: 10, burstLimit: 20 },
    },
    raw: true,
    response: { status: 200 },
  },
  getProblemType: {
    method: 'GET',
    path: '/v1/problems/{code}',
    tag: 'document',
    public: {
      reason:
        'Problem type pages are documentation that problem+json bodies link to (RFC 9457): static text from the problem table, no data, with their own low throttle.',
      throttle: { rateLimit: 10, burstLimit: 20 },
    },
    raw: true,
    params: lazySchema(() => z.strictObject({ code: z.string().regex(/^[a-z_]{1,64}$/) })),
    problems: ['not_found'],
    response: { status: 200, mediaType: 'text/html' },
  },
} as const satisfies RouteTable;

/** What the OpenAPI document says of each route of DOCUMENT_ROUTES (a function, so that nothing of it is evaluated, or bundled, where only the routes are used: the document's generator calls it). */
export const documentRouteDocs = (): RouteDocs<typeof DOCUMENT_ROUTES> => ({
  getOpenApi: {
    summary: 'This OpenAPI document',
    response: 'This document',
  },
  getProblemType: {
    summary: 'The documentation of a problem type',
    description:
      'Every problem+json `type` is this path with its code: a page giving the status, the ' +
      'title, when the code is answered and which routes answer it.',
    response: 'The page of that code',
  },
});

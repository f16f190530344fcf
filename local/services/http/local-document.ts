import { DOCUMENT_ROUTES } from '../../../functions/api/document/spec';
import type { HttpHandler, HttpResult } from '../../../functions/api/types';
import {
  DEMO_PRINCIPAL,
  LOCAL_PRINCIPAL_CHARACTERS,
  LOCAL_PRINCIPAL_HEADER,
} from '../../../functions/contract/local-stack';

/** The security scheme of the local document, pre-filled on /docs (api-reference.ts). */
export const LOCAL_SECURITY_SCHEME = 'localPrincipal';

const OPENAPI = DOCUMENT_ROUTES.getOpenApi;

/**
 * The OpenAPI document as the local stack serves it (docs/contract.md §2): its only identity is
 * `X-Principal-Id`, so the JWT and SigV4 schemes of a deployment give way to an API-key scheme
 * for that header, which /docs "Try it out" sends. Only the local stack rewrites it: the function
 * (and so every deployment and the typed client) never mentions the header.
 */
export function localOpenApiDocument(
  document: Record<string, unknown>,
  baseUrl?: string,
): Record<string, unknown> {
  const info = (document.info ?? {}) as Record<string, unknown>;
  const components = (document.components ?? {}) as Record<string, unknown>;
  return {
    ...document,
    info: {
      ...info,
      description:
        `Served by the local stack (npm start), which reads the caller from ${LOCAL_PRINCIPAL_HEADER} ` +
        `(scheme ${LOCAL_SECURITY_SCHEME}); a deployment uses JWT or SigV4 instead. ${String(info.description ?? '')}`,
    },
    // The stack's own base URL (docs/contract.md §30); a deployment serves a relative `/`.
    ...(baseUrl === undefined ? {} : { servers: [{ url: baseUrl, description: 'npm start' }] }),
    security: [{ [LOCAL_SECURITY_SCHEME]: [] }],
    components: {
      ...components,
      securitySchemes: {
        [LOCAL_SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: LOCAL_PRINCIPAL_HEADER,
          description:
            `Local stack only: the principal, 1-128 characters of ${LOCAL_PRINCIPAL_CHARACTERS}. ` +
            `/docs pre-fills "${DEMO_PRINCIPAL}", the principal of the README walkthrough.`,
        },
      },
    },
  };
}

/** The HTTP function with its OpenAPI answer rewritten by `localOpenApiDocument`. */
export function withLocalDocument(handler: HttpHandler, baseUrl?: () => string): HttpHandler {
  return async (event) => {
    const result = await handler(event);
    const { method, path } = event.requestContext.http;
    if (method !== OPENAPI.method || path !== OPENAPI.path || result.statusCode !== 200) {
      return result;
    }
    return rewritten(result, baseUrl?.());
  };
}

function rewritten(result: HttpResult, baseUrl: string | undefined): HttpResult {
  const document = JSON.parse(result.body ?? '{}') as Record<string, unknown>;
  return { ...result, body: JSON.stringify(localOpenApiDocument(document, baseUrl)) };
}

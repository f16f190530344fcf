import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './openapi.generated';
import { type AwsCredentials, sigV4Middleware } from './sigv4';

/**
 * The typed client of the ledger API: openapi-fetch over the types generated from the service's
 * OpenAPI document (client/openapi.generated.ts, `npm run generate:client`). docs/client.md
 * shows how an application uses it.
 */
export type { AwsCredentials, components, operations, paths };
export type LedgerClient = Client<paths>;
export type Schemas = components['schemas'];

/** How the client proves who it is (the deployment chooses JWT or IAM; see docs/deployment.md). */
export type LedgerAuth =
  /** The local stack's `X-Principal-Id` header; a deployed API ignores it. */
  | { readonly kind: 'local'; readonly principal: string }
  /** `Authorization: Bearer <JWT>`; the function is called per request, so tokens can refresh. */
  | { readonly kind: 'jwt'; readonly token: () => string | Promise<string> }
  /** AWS SigV4 (`execute-api`) with the caller's IAM credentials. */
  | { readonly kind: 'iam'; readonly region: string; readonly credentials: AwsCredentials }
  /** No identity: only the OpenAPI document and signed callbacks answer. */
  | { readonly kind: 'none' };

export interface LedgerClientOptions {
  /** The API's base URL, e.g. `http://127.0.0.1:3000` or the stage's invoke URL. */
  readonly baseUrl: string;
  readonly auth: LedgerAuth;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

export const LOCAL_PRINCIPAL_HEADER = 'X-Principal-Id';

export function authMiddleware(auth: LedgerAuth): Middleware | undefined {
  switch (auth.kind) {
    case 'local':
      return {
        onRequest({ request }) {
          request.headers.set(LOCAL_PRINCIPAL_HEADER, auth.principal);
          return request;
        },
      };
    case 'jwt':
      return {
        async onRequest({ request }) {
          request.headers.set('Authorization', `Bearer ${await auth.token()}`);
          return request;
        },
      };
    case 'iam':
      return sigV4Middleware({ region: auth.region, credentials: auth.credentials });
    case 'none':
      return undefined;
  }
}

export function createLedgerClient(options: LedgerClientOptions): LedgerClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const auth = authMiddleware(options.auth);
  if (auth) client.use(auth);
  return client;
}

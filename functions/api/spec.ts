import type * as z from 'zod';
import type { OperationId } from '../domain/idempotency/operations';
import type { ErrorCode } from '../domain/shared/errors';

/**
 * One HTTP route, written once: the router (router.ts), the OpenAPI document (openapi.ts) and
 * the deployed API Gateway routes (lib/constructs/http/ledger-http-api.ts) are all derived from it.
 * A new route is a spec in `api/<feature>/spec.ts` plus its handler in `api/<feature>/routes.ts`.
 */
export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path template, e.g. /v1/accounts/{accountId} (the syntax API Gateway uses too). */
  readonly path: string;
  /**
   * The stable idempotency operation id of an idempotent POST (`OPERATION_IDS`): part of every
   * stored key, never changed (docs/contract.md §4). Its presence makes the route a command:
   * the router requires `Idempotency-Key` and parses the JSON body.
   */
  readonly idempotency?: OperationId;
  readonly tag: RouteTag;
  /**
   * Absent: behind the deployment's JWT or IAM authorizer, for an authenticated principal.
   * A public route has no authorizer, so it carries why (the cdk-nag AwsSolutions-APIG4
   * acknowledgement) and its own throttle.
   */
  readonly public?: PublicAccess;
  /** Path parameters, parsed as `path.<name>`. */
  readonly params?: z.ZodObject;
  /** Query parameters, parsed as `query.<name>`. */
  readonly query?: z.ZodObject;
  /** Request headers besides `Idempotency-Key` (documented; the handler reads them). */
  readonly headers?: readonly HeaderSpec[];
  /** The JSON request body, parsed by the router (a command's, or a PATCH's). */
  readonly body?: NamedSchema;
  readonly response: {
    /** 204: no body (a DELETE). */
    readonly status: 200 | 201 | 202 | 204;
    /** Absent: any JSON object (the OpenAPI document itself), or text of `mediaType`. */
    readonly body?: NamedSchema;
    /** A raw route answering something else than JSON (the problem type pages: text/html). */
    readonly mediaType?: 'text/html';
  };
  /**
   * The codes this route answers besides the ones every route of its kind may answer
   * (`problemsOf` adds those): their statuses come from the problem table (problems.ts).
   */
  readonly problems?: readonly ErrorCode[];
  /**
   * The handler reads the request itself and answers the HttpResult: nothing is parsed before
   * it (signed callbacks check the signature over the raw bytes first, docs/contract.md §7).
   */
  readonly raw?: true;
}

/** Tags of the OpenAPI document, one per feature. */
export type RouteTag =
  | 'accounts'
  | 'journal'
  | 'monitors'
  | 'statements'
  | 'transfers'
  | 'holds'
  | 'ledger-transactions'
  | 'reversals'
  | 'batches'
  | 'search'
  | 'exports'
  | 'callbacks'
  | 'webhooks'
  | 'health'
  | 'document';

export interface PublicAccess {
  readonly reason: string;
  /**
   * `callback-limits`: the stage's configured limits for unauthenticated traffic (context
   * `callbackRateLimit` / `callbackBurstLimit`, default half the stage's); or fixed limits,
   * capped at the stage's.
   */
  readonly throttle: 'callback-limits' | Throttle;
}

export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** A schema published under a name in `components.schemas`. */
export interface NamedSchema<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly schema: S;
}

export interface HeaderSpec {
  readonly name: string;
  readonly description: string;
}

/** Specs keyed by their OpenAPI operationId (what the typed client names; never renamed). */
export type RouteTable = Readonly<Record<string, RouteSpec>>;

/**
 * What the OpenAPI document says of a route, in prose. Written beside its spec, returned by a
 * function of its own (`<feature>RouteDocs()`) that only the document's generator calls, so the
 * text stays out of the HTTP function's bundle (a function is dropped when unused, where an
 * object with template literals is not) and the function serves the generated document
 * (api/document/published.ts).
 */
export interface RouteDoc {
  readonly summary: string;
  readonly description?: string;
  /** Of the success response; a command's gets " (or its replay)" in the document. */
  readonly response: string;
}

/** One {@link RouteDoc} for every route of a table: a route without one does not compile. */
export type RouteDocs<T extends RouteTable> = { readonly [K in keyof T]: RouteDoc };

/** A spec with its operationId: what the router, the document and the CDK walk. */
export type ListedRoute = RouteSpec & { readonly operationId: string };

export function listRoutes(table: RouteTable): ListedRoute[] {
  return Object.entries(table).map(([operationId, spec]) => ({ ...spec, operationId }));
}

export const named = <S extends z.ZodType>(name: string, schema: S): NamedSchema<S> => ({
  name,
  schema,
});

/** API Gateway's route key, e.g. `POST /v1/accounts`. */
export const routeKey = (spec: Pick<RouteSpec, 'method' | 'path'>): string =>
  `${spec.method} ${spec.path}`;

/** Behind the authorizer: every route that is not public. */
export const needsPrincipal = (spec: RouteSpec): boolean => spec.public === undefined;

/**
 * Every code a route may answer, each once: the ones any route of its kind may answer (behind a
 * principal: 401 and 503; with input: 400; with a path behind a principal: 404; a command: the
 * Idempotency-Key and body checks), then its own, then `internal`.
 */
export function problemsOf(spec: RouteSpec): ErrorCode[] {
  const principal = needsPrincipal(spec);
  const codes = new Set<ErrorCode>([
    ...(principal ? (['unauthenticated', 'unavailable'] as const) : []),
    ...(spec.params || spec.query || spec.idempotency ? (['validation_failed'] as const) : []),
    ...(spec.params && principal ? (['not_found'] as const) : []),
    ...(spec.idempotency ? COMMAND_PROBLEMS : []),
    ...(spec.problems ?? []),
    'internal',
  ]);
  return [...codes];
}

/** What a credit, debit or transfer may be refused with beyond its input (docs/contract.md §5, §10). */
export const MOVEMENT_PROBLEMS = [
  'insufficient_funds',
  'payment_id_conflict',
  'currency_mismatch',
  'balance_limit_exceeded',
  'account_closed',
  'period_closed',
] as const satisfies readonly ErrorCode[];

const COMMAND_PROBLEMS: readonly ErrorCode[] = [
  'idempotency_key_missing',
  'idempotency_key_invalid',
  'payload_too_large',
  'unsupported_media_type',
  'idempotency_key_reused',
  'idempotency_key_in_use',
];

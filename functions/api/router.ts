import type * as z from 'zod';
import type { Json } from '../domain/idempotency/fingerprint';
import type { CommandContext, CommandResponse } from '../domain/idempotency/idempotent-command';
import { parseIdempotencyKey } from '../domain/idempotency/key';
import { NotFoundError } from '../domain/shared/errors';
import { principalOf } from './principal';
import { header, parseWith, readJsonBody } from './request';
import { json, noContent, rawJson } from './respond';
import {
  type ListedRoute,
  type NamedSchema,
  needsPrincipal,
  type PublicAccess,
  type RouteSpec,
  type RouteTable,
  routeKey,
} from './spec';
import type { HttpEvent, HttpResult } from './types';

/** What a raw route's handler gets: the event and the path parameters as matched. */
export interface RouteRequest {
  readonly event: HttpEvent;
  readonly pathParameters: Record<string, string>;
}

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

/** A command's input: who asks with which key, the body as received and as parsed. */
export interface CommandInput<S extends RouteSpec> {
  readonly ctx: CommandContext;
  /** The body as received: what the fingerprint covers. */
  readonly body: Json;
  readonly input: Parsed<NonNullable<S['body']>['schema']>;
}

/** What the router parsed for a route, from its spec, before the handler runs. */
export interface RouteInput<S extends RouteSpec> {
  readonly event: HttpEvent;
  /** The authenticated caller of a `principal` route. */
  readonly principal: S['public'] extends PublicAccess ? undefined : string;
  readonly params: Parsed<S['params']>;
  readonly query: Parsed<S['query']>;
  /** The parsed body of a route that is not a command (a PATCH); a command's is `command.input`. */
  readonly body: S['idempotency'] extends string
    ? undefined
    : S['body'] extends NamedSchema
      ? Parsed<S['body']['schema']>
      : undefined;
  readonly command: S['idempotency'] extends string ? CommandInput<S> : undefined;
}

/**
 * A route's handler. Raw routes answer the HttpResult; commands the stored response (first
 * answer or replay); reads the resource, sent as JSON with the spec's status.
 */
export type RouteHandler<S extends RouteSpec> = S['raw'] extends true
  ? (request: RouteRequest) => Promise<HttpResult>
  : S['idempotency'] extends string
    ? (input: RouteInput<S>) => Promise<CommandResponse>
    : (input: RouteInput<S>) => Promise<unknown>;

/** One handler per spec of a table: a spec without one does not compile. */
export type RouteHandlers<T extends RouteTable> = { readonly [K in keyof T]: RouteHandler<T[K]> };

/** What `bind` passes, before the spec's types narrow it for the handler. */
interface LooseInput {
  readonly event: HttpEvent;
  readonly principal: string | undefined;
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
  readonly command: { ctx: CommandContext; body: Json; input: unknown } | undefined;
}

type AnyHandler =
  | ((request: RouteRequest) => Promise<HttpResult>)
  | ((input: LooseInput) => Promise<unknown>);

function compile(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

/**
 * Parses what the spec declares, in contract order (401, path, query, Idempotency-Key, then
 * 413/415/400 of the body), calls the handler and answers.
 */
function bind(spec: RouteSpec, handler: AnyHandler, clock: () => Date) {
  if (spec.raw) return handler as (request: RouteRequest) => Promise<HttpResult>;
  if (spec.idempotency && !needsPrincipal(spec)) {
    throw new Error(`${routeKey(spec)}: a command cannot be public`);
  }
  const handle = handler as (input: LooseInput) => Promise<unknown>;
  return async ({ event, pathParameters }: RouteRequest): Promise<HttpResult> => {
    const principal = needsPrincipal(spec) ? principalOf(event) : undefined;
    const params = spec.params && parseWith(spec.params, pathParameters, 'path');
    const query = spec.query && parseWith(spec.query, event.queryStringParameters ?? {}, 'query');
    if (!spec.idempotency) {
      const body = spec.body && parseWith(spec.body.schema, readJsonBody(event), 'body');
      const resource = await handle({ event, principal, params, query, body, command: undefined });
      return spec.response.status === 204 ? noContent() : json(spec.response.status, resource);
    }
    const idempotencyKey = parseIdempotencyKey(header(event, 'idempotency-key'));
    const body = readJsonBody(event);
    const input = spec.body && parseWith(spec.body.schema, body, 'body');
    // A command's route is a principal route (checked above), so this is the caller read first.
    const ctx = { principal: principalOf(event), idempotencyKey, now: clock() };
    const command = { ctx, body, input };
    const response = (await handle({
      event,
      principal,
      params,
      query,
      body: undefined,
      command,
    })) as CommandResponse;
    return rawJson(response.statusCode, response.body, response.replayed);
  };
}

/** A route of a table that matches a request, with its path parameters as sent. */
export interface RouteMatch<R extends ListedRoute = ListedRoute> {
  readonly route: R;
  readonly pathParameters: Record<string, string>;
}

/**
 * Matches method and path (as sent) against the routes' templates, in table order. The router
 * uses it, and so does the local stack to know which requests its authorizer stand-in guards.
 */
export function routeMatcher<R extends ListedRoute>(
  routes: readonly R[],
): (method: string, path: string) => RouteMatch<R> | undefined {
  const compiled = routes.map((route) => ({ route, ...compile(route.path) }));
  return (method, path) => {
    const wanted = method.toUpperCase();
    for (const { route, pattern, names } of compiled) {
      if (route.method !== wanted) continue;
      const match = pattern.exec(path);
      if (!match) continue;
      const pathParameters: Record<string, string> = {};
      names.forEach((name, i) => {
        pathParameters[name] = safeDecode(match[i + 1] ?? '');
      });
      return { route, pathParameters };
    }
    return undefined;
  };
}

/**
 * The router of a route table: hands each request to the handler of the route it matches; no
 * match is `404 not_found`.
 */
export function createRouter<T extends RouteTable>(
  routes: readonly ListedRoute[],
  handlers: RouteHandlers<T>,
  clock: () => Date,
) {
  const byId = handlers as unknown as Readonly<Record<string, AnyHandler>>;
  const bound = routes.map((spec) => {
    const handler = byId[spec.operationId];
    if (!handler) throw new Error(`no handler for ${routeKey(spec)}`);
    return { ...spec, handle: bind(spec, handler, clock) };
  });
  const match = routeMatcher(bound);
  return (event: HttpEvent): Promise<HttpResult> => {
    const found = match(event.requestContext.http.method, event.rawPath);
    if (!found) throw new NotFoundError('No such route.');
    return found.route.handle({ event, pathParameters: found.pathParameters });
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

import type { ServiceConfig } from '../config';
import { buildOpenApiDocument } from '../contract/openapi';
import {
  AccountPath,
  CreateAccountBody,
  ListTransactionsQuery,
  PostTransactionBody,
} from '../contract/schemas';
import { AppError } from '../core/errors';
import { parseIdempotencyKey } from '../core/idempotency-key';
import { type CommandResponse, LedgerService, OPERATIONS } from '../core/ledger-service';
import type { LedgerPort } from '../core/ports';
import { principalOf } from './principal';
import { header, parseWith, readJsonBody } from './request';
import { json, problemResult, rawJson } from './respond';
import { createRouter, type RouteRequest } from './router';
import type { HttpHandler } from './types';

export interface HttpAppDeps {
  readonly ledger: LedgerPort;
  readonly config: ServiceConfig;
  readonly clock?: () => Date;
  readonly newId?: () => string;
  /** Where unexpected failures are reported; defaults to one JSON line on stderr. */
  readonly reportError?: (error: unknown, event: { requestId: string; routeKey: string }) => void;
}

/** The HTTP API: parse, call the core, map the outcome. No business rule lives here. */
export function createHttpApp(deps: HttpAppDeps): HttpHandler {
  const clock = deps.clock ?? (() => new Date());
  const service = new LedgerService(deps.ledger, {
    idempotencyRetentionSeconds: deps.config.idempotencyRetentionSeconds,
    ...(deps.newId ? { newId: deps.newId } : {}),
  });
  const openApi = JSON.stringify(buildOpenApiDocument(deps.config));
  const reportError = deps.reportError ?? logUnexpected;

  const command = (request: RouteRequest) => {
    const principal = principalOf(request.event);
    const idempotencyKey = parseIdempotencyKey(header(request.event, 'idempotency-key'));
    const body = readJsonBody(request.event);
    return { ctx: { principal, idempotencyKey, now: clock() }, body };
  };
  const commandResult = (response: CommandResponse) =>
    rawJson(response.statusCode, response.body, response.replayed);
  const accountId = (request: RouteRequest) =>
    parseWith(AccountPath, request.pathParameters, 'path').accountId;

  const route = createRouter([
    {
      key: 'GET /v1/openapi.json',
      handle: async () => rawJson(200, openApi),
    },
    {
      key: OPERATIONS.createAccount,
      handle: async (request) => {
        const { ctx, body } = command(request);
        const input = parseWith(CreateAccountBody, body, 'body');
        return commandResult(await service.createAccount(ctx, input, body));
      },
    },
    {
      key: 'GET /v1/accounts/{accountId}',
      handle: async (request) => {
        const principal = principalOf(request.event);
        return json(200, await service.getAccount(principal, accountId(request)));
      },
    },
    {
      key: OPERATIONS.postTransaction,
      handle: async (request) => {
        principalOf(request.event);
        const id = accountId(request);
        const { ctx, body } = command(request);
        const input = parseWith(PostTransactionBody, body, 'body');
        return commandResult(await service.postTransaction(ctx, id, input, body));
      },
    },
    {
      key: 'GET /v1/accounts/{accountId}/transactions',
      handle: async (request) => {
        const principal = principalOf(request.event);
        const id = accountId(request);
        const query = parseWith(
          ListTransactionsQuery,
          request.event.queryStringParameters ?? {},
          'query',
        );
        const page = await service.listTransactions(principal, id, query.limit, query.cursor);
        return json(200, page);
      },
    },
    {
      key: 'GET /v1/accounts/{accountId}/event-sources',
      handle: async (request) => {
        const principal = principalOf(request.event);
        return json(200, await service.listEventSources(principal, accountId(request)));
      },
    },
  ]);

  return async (event) => {
    try {
      return await route(event);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) {
        reportError(error, {
          requestId: event.requestContext.requestId,
          routeKey: `${event.requestContext.http.method} ${event.rawPath}`,
        });
      }
      return problemResult(error);
    }
  };
}

function logUnexpected(error: unknown, where: { requestId: string; routeKey: string }): void {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  console.error(
    JSON.stringify({
      level: 'ERROR',
      message: 'request failed',
      ...where,
      code: error instanceof AppError ? error.code : 'internal',
      errorName: cause instanceof Error ? cause.name : typeof cause,
      errorMessage: cause instanceof Error ? cause.message : String(cause),
    }),
  );
}

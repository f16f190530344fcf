import type { ServiceConfig } from '../config';
import { buildOpenApiDocument } from '../contract/openapi';
import { type CallbackPort, CallbackService } from '../core/callback-service';
import { AppError } from '../core/errors';
import { LedgerService } from '../core/ledger-service';
import type { LedgerPort } from '../core/ports';
import type { TaskPort } from '../core/task-ports';
import { TaskService } from '../core/task-service';
import { consoleLog, errorFields, type Log } from '../observability/log';
import type { CallbackSecrets } from '../secrets/callback-secrets';
import { problemResult, rawJson } from './respond';
import { createRouter } from './router';
import { callbackRoutes } from './routes/callback-routes';
import { ledgerRoutes } from './routes/ledger-routes';
import { taskRoutes } from './routes/task-routes';
import type { HttpHandler } from './types';

export interface HttpAppDeps {
  readonly ledger: LedgerPort;
  readonly tasks: TaskPort;
  readonly callbacks: CallbackPort;
  readonly callbackSecrets: CallbackSecrets;
  readonly config: ServiceConfig;
  readonly clock?: () => Date;
  readonly newId?: () => string;
  readonly log?: Log;
}

/** The HTTP API: parse, call the core, map the outcome. No business rule lives here. */
export function createHttpApp(deps: HttpAppDeps): HttpHandler {
  const clock = deps.clock ?? (() => new Date());
  const log = deps.log ?? consoleLog;
  const { config } = deps;
  const newId = deps.newId ? { newId: deps.newId } : {};
  const openApi = JSON.stringify(buildOpenApiDocument(config));

  const route = createRouter([
    { key: 'GET /v1/openapi.json', handle: async () => rawJson(200, openApi) },
    ...ledgerRoutes(
      new LedgerService(deps.ledger, {
        idempotencyRetentionSeconds: config.idempotencyRetentionSeconds,
        ...newId,
      }),
      clock,
    ),
    ...taskRoutes(
      new TaskService(deps.tasks, {
        idempotencyRetentionSeconds: config.idempotencyRetentionSeconds,
        exportFee: config.exportFee,
        callbackApplicationId: config.callbackApplicationId,
        ...newId,
      }),
      clock,
    ),
    ...callbackRoutes(
      new CallbackService(deps.callbacks, { inboxRetentionSeconds: config.inboxRetentionSeconds }),
      deps.callbackSecrets,
      clock,
      log,
    ),
  ]);

  return async (event) => {
    try {
      return await route(event);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) {
        log.error('request failed', {
          requestId: event.requestContext.requestId,
          route: `${event.requestContext.http.method} ${event.rawPath}`,
          code: error instanceof AppError ? error.code : 'internal',
          ...errorFields(error),
        });
      }
      return problemResult(error);
    }
  };
}

import type { LedgerPort } from '../domain/accounts/port';
import { LedgerService } from '../domain/accounts/service';
import type { CallbackPort, CallbackSecrets } from '../domain/callbacks/port';
import { CallbackService } from '../domain/callbacks/service';
import type { ResultObjectPort, TaskPort } from '../domain/exports/port';
import { ExportResultService } from '../domain/exports/result';
import { TaskService } from '../domain/exports/service';
import type { HoldPort } from '../domain/holds/port';
import { HoldService } from '../domain/holds/service';
import { sha256Hex } from '../domain/idempotency/fingerprint';
import type { ErrorCode } from '../domain/shared/errors';
import { errorFields } from '../domain/shared/log';
import { METRICS, type MetricName } from '../domain/shared/metrics';
import type { Runtime } from '../domain/shared/runtime';
import type { TransferPort } from '../domain/transfers/port';
import { TransferService } from '../domain/transfers/service';
import { ledgerRoutes } from './accounts/routes';
import { callbackPath, callbackRoutes } from './callbacks/routes';
import { taskRoutes } from './exports/routes';
import { holdRoutes } from './holds/routes';
import { buildOpenApiDocument } from './openapi';
import { principalOf } from './principal';
import { httpResponses, toProblem } from './problems';
import { header } from './request';
import { problemResponse, rawJson } from './respond';
import { createRouter } from './router';
import { transferRoutes } from './transfers/routes';
import type { HttpEvent, HttpHandler, HttpResult } from './types';

/** The settings the HTTP API reads; every function's `ServiceConfig` extends them. */
export interface HttpAppConfig {
  /** How long a request idempotency record replays (contract §4). */
  readonly idempotencyRetentionSeconds: number;
  /** How long an event id is remembered by the inbox (contract §6). */
  readonly inboxRetentionSeconds: number;
  /** Fee debited per export task, in minor units (contract §5). */
  readonly exportFee: number;
  /** The application whose signed callbacks report on export executions (contract §7, §8). */
  readonly callbackApplicationId: string;
  /** An execution not terminal this long after its creation times out (contract §12). */
  readonly exportExecutionTimeoutSeconds: number;
  /** Reruns a task accepts (docs/contract.md §12). */
  readonly maxRerunsPerTask: number;
  /** Days an export object is kept; the result route answers 410 after them (contract §14). */
  readonly exportRetentionDays: number;
}

export interface HttpAppDeps extends Runtime {
  readonly ledger: LedgerPort;
  readonly tasks: TaskPort;
  readonly transfers: TransferPort;
  readonly holds: HoldPort;
  readonly callbacks: CallbackPort;
  /** Export objects: existence and presigned downloads (docs/contract.md §12). */
  readonly results: ResultObjectPort;
  readonly callbackSecrets: CallbackSecrets;
  readonly config: HttpAppConfig;
}

/** Problem codes worth a metric of their own. */
const CODE_METRIC: Partial<Record<ErrorCode, MetricName>> = {
  idempotency_key_reused: METRICS.idempotencyKeyReused,
  invalid_signature: METRICS.signatureFailure,
  signature_expired: METRICS.signatureFailure,
  unavailable: METRICS.storageThrottle,
};

/** The HTTP API: parse, call the domain, map the outcome. No business rule lives here. */
export function createHttpApp(deps: HttpAppDeps): HttpHandler {
  const { clock, log, metrics, config } = deps;
  // Built on first request, not at cold start: converting the schemas costs init time that most
  // containers never get back.
  let openApi: string | undefined;
  const commandOptions = {
    idempotencyRetentionSeconds: config.idempotencyRetentionSeconds,
    responses: httpResponses,
    newId: deps.newId,
  };

  const route = createRouter([
    {
      key: 'GET /v1/openapi.json',
      handle: async () => {
        openApi ??= JSON.stringify(buildOpenApiDocument(config));
        return rawJson(200, openApi);
      },
    },
    ...ledgerRoutes(new LedgerService(deps.ledger, commandOptions), clock),
    ...transferRoutes(new TransferService(deps.transfers, commandOptions), clock),
    ...holdRoutes(new HoldService(deps.holds, commandOptions), clock),
    ...taskRoutes(
      new TaskService(deps.tasks, {
        ...commandOptions,
        exportFee: config.exportFee,
        callbackApplicationId: config.callbackApplicationId,
        callbackPath: callbackPath(config.callbackApplicationId),
        executionTimeoutSeconds: config.exportExecutionTimeoutSeconds,
        maxReruns: config.maxRerunsPerTask,
      }),
      new ExportResultService(deps.tasks, deps.results, {
        retentionDays: config.exportRetentionDays,
      }),
      clock,
    ),
    ...callbackRoutes(
      new CallbackService(deps.callbacks, { inboxRetentionSeconds: config.inboxRetentionSeconds }),
      deps.callbackSecrets,
      clock,
      log,
      metrics,
    ),
  ]);

  return async (event) => {
    const fields = correlationFields(event);
    let result: HttpResult;
    try {
      result = await route(event);
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500) {
        log.error('request failed', { ...fields, code: problem.code, ...errorFields(error) });
      }
      const metric = CODE_METRIC[problem.code];
      if (metric) metrics.count(metric);
      result = problemResponse(problem);
    }
    const replayed = result.headers['idempotent-replayed'] === 'true';
    if (replayed) metrics.count(METRICS.idempotentReplay);
    log.info('request', { ...fields, status: result.statusCode, replayed });
    return result;
  };
}

/**
 * What ties a log line to a request: never the raw Idempotency-Key (a client secret of sorts),
 * only a short hash of it; never a body or a signature.
 */
function correlationFields(event: HttpEvent): Record<string, unknown> {
  const key = header(event, 'idempotency-key');
  let principal: string | undefined;
  try {
    principal = principalOf(event);
  } catch {
    principal = undefined;
  }
  return {
    requestId: event.requestContext.requestId,
    route: `${event.requestContext.http.method} ${event.rawPath}`,
    ...(principal ? { principal } : {}),
    ...(key ? { idempotencyKeyHash: sha256Hex(key.trim()).slice(0, 16) } : {}),
  };
}

import { LEDGER_FUNCTION_TIMEOUT_SECONDS } from '../contract/http';
import type { EntryReadPort, LedgerPort, SettingsPort } from '../domain/accounts/port';
import { EntryReadService } from '../domain/accounts/reads';
import { LedgerService } from '../domain/accounts/service';
import { SettingsService } from '../domain/accounts/settings';
import type { BatchPort } from '../domain/batches/port';
import { BatchService } from '../domain/batches/service';
import type { CallbackPort, CallbackSecrets } from '../domain/callbacks/port';
import { CallbackService } from '../domain/callbacks/service';
import type { ResultObjectPort, TaskPort } from '../domain/exports/port';
import { ExportResultService } from '../domain/exports/result';
import { TaskService } from '../domain/exports/service';
import type { HealthPort } from '../domain/health/port';
import { HealthService } from '../domain/health/service';
import type { HoldPort } from '../domain/holds/port';
import { HoldService } from '../domain/holds/service';
import { sha256Hex } from '../domain/idempotency/fingerprint';
import type { CommandServiceOptions } from '../domain/idempotency/idempotent-command';
import type { JournalReadPort } from '../domain/journal/port';
import { JournalService } from '../domain/journal/service';
import type { LedgerTransactionPort } from '../domain/ledger-transactions/port';
import { LedgerTransactionService } from '../domain/ledger-transactions/service';
import type { MonitorPort } from '../domain/monitors/port';
import { MonitorService } from '../domain/monitors/service';
import { intakeDirectoryOf } from '../domain/movements/intake';
import type { MovementPort } from '../domain/movements/port';
import type { ReversalPort } from '../domain/reversals/port';
import { ReversalService } from '../domain/reversals/service';
import type { SearchReadPort } from '../domain/search/port';
import { SearchService } from '../domain/search/service';
import type { ErrorCode } from '../domain/shared/errors';
import { type Invocation, withInvocation } from '../domain/shared/invocation';
import { errorFields } from '../domain/shared/log';
import { METRICS, type MetricName } from '../domain/shared/metrics';
import type { Runtime } from '../domain/shared/runtime';
import type { StatementPort } from '../domain/statements/port';
import { StatementService } from '../domain/statements/service';
import type { TransferPort } from '../domain/transfers/port';
import { TransferService } from '../domain/transfers/service';
import {
  type DeliveryReads,
  resumeDeliveries,
  WebhookDeliveryService,
} from '../domain/webhooks/deliveries';
import type { WebhookQueue } from '../domain/webhooks/delivery-port';
import type { WebhookEndpointPort } from '../domain/webhooks/port';
import { WebhookEndpointService, type WebhookSecurity } from '../domain/webhooks/service';
import { accountHandlers } from './accounts/routes';
import { batchHandlers, batchResponses } from './batches/routes';
import { callbackHandlers, callbackPath } from './callbacks/routes';
import { documentHandlers } from './document/routes';
import { exportHandlers } from './exports/routes';
import { healthHandlers } from './health/routes';
import { holdHandlers } from './holds/routes';
import { journalHandlers } from './journal/routes';
import { ledgerTransactionHandlers } from './ledger-transactions/routes';
import { monitorHandlers } from './monitors/routes';
import { principalOf } from './principal';
import { httpResponses, toProblem } from './problems';
import { header } from './request';
import { problemResponse } from './respond';
import { reversalHandlers } from './reversals/routes';
import { createRouter } from './router';
import { ROUTE_LIST, type Routes } from './routes';
import { searchHandlers } from './search/routes';
import { statementHandlers } from './statements/routes';
import { transferHandlers } from './transfers/routes';
import type { HttpContext, HttpEvent, HttpHandler, HttpResult } from './types';
import { webhookDeliveryHandlers, webhookEndpointHandlers } from './webhooks/routes';

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
  /**
   * Principals that may read any account's journal and balances (docs/contract.md §15).
   * @default [] (owners only)
   */
  readonly journalReaders?: readonly string[];
  /** How far back a movement's `effectiveAt` may lie (`BACKDATE_LIMIT_DAYS`, §26). */
  readonly backdateLimitDays: number;
  /** Intake partitions of an account that turns deferred (docs/contract.md §24). */
  readonly intakeShards: number;
  /**
   * `DAY_SUMS_SETTLE_SECONDS`: how long after the projector's last addition a day's sums count
   * in statements (docs/contract.md §26 "Day sums"). @default 300
   */
  readonly daySumsSettleSeconds?: number;
}

export interface HttpAppDeps extends Runtime {
  readonly ledger: LedgerPort;
  /** Account settings (docs/contract.md §24). */
  readonly settings: SettingsPort;
  /** Entries by id and pending credits (docs/contract.md §24). */
  readonly entryReads: EntryReadPort;
  /** Every movement's ONE transaction (docs/contract.md §23). */
  readonly movements: MovementPort;
  readonly tasks: TaskPort;
  readonly transfers: TransferPort;
  readonly holds: HoldPort;
  readonly ledgerTransactions: LedgerTransactionPort;
  readonly reversals: ReversalPort;
  /** Batches' claims and shared transactions (docs/contract.md §25). */
  readonly batches: BatchPort;
  readonly journal: JournalReadPort;
  /** Balance monitors (docs/contract.md §28). */
  readonly monitors: MonitorPort;
  /** Statements, effective balances, period closes (docs/contract.md §26). */
  readonly statements: StatementPort;
  readonly callbacks: CallbackPort;
  /** The table read of `GET /v1/health` (docs/contract.md §5). */
  readonly health: HealthPort;
  /** Search by metadata, reference and payment id (docs/contract.md §34). */
  readonly search: SearchReadPort;
  /** Export objects: existence and presigned downloads (docs/contract.md §12). */
  readonly results: ResultObjectPort;
  readonly callbackSecrets: CallbackSecrets;
  /** Webhook endpoints (docs/contract.md §32) and how their URLs and secrets are guarded. */
  readonly webhookEndpoints: WebhookEndpointPort;
  readonly webhookSecurity: WebhookSecurity;
  readonly webhookDeliveries: DeliveryReads;
  /** The delivery queue: manual retries and resumed endpoints go there. */
  readonly webhookQueue: WebhookQueue;
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
  const commandOptions = {
    idempotencyRetentionSeconds: config.idempotencyRetentionSeconds,
    responses: httpResponses,
    newId: deps.newId,
  };
  // Commands that write movements a caller may date (docs/contract.md §26).
  const movementOptions = { ...commandOptions, backdateLimitDays: config.backdateLimitDays };
  const tasks = new TaskService(deps.tasks, deps.movements, {
    ...commandOptions,
    exportFee: config.exportFee,
    callbackApplicationId: config.callbackApplicationId,
    callbackPath: callbackPath(config.callbackApplicationId),
    executionTimeoutSeconds: config.exportExecutionTimeoutSeconds,
    maxReruns: config.maxRerunsPerTask,
  });
  const results = new ExportResultService(deps.tasks, deps.results, {
    retentionDays: config.exportRetentionDays,
  });
  const callbacks = new CallbackService(deps.callbacks, {
    inboxRetentionSeconds: config.inboxRetentionSeconds,
  });

  const intake = { intakeShards: config.intakeShards };
  const postings = new LedgerService(deps.ledger, deps.movements, {
    ...movementOptions,
    ...intake,
  });
  const transfers = new TransferService(deps.transfers, deps.movements, movementOptions);
  const ledgerTransactions = new LedgerTransactionService(
    deps.ledgerTransactions,
    deps.movements,
    movementOptions,
  );
  const batches = new BatchService(
    deps.batches,
    { postings, transfers, ledgerTransactions },
    {
      ...movementOptions,
      presenter: batchResponses,
      now: () => clock().getTime(),
      // One routing decision (docs/contract.md §25): the single routes' directory.
      intake: intakeDirectoryOf(deps.movements),
    },
  );
  const statements = new StatementService(deps.statements, {
    ...commandOptions,
    readers: config.journalReaders ?? [],
    daySumsSettleSeconds: config.daySumsSettleSeconds,
    metrics,
  });

  const search = new SearchService(deps.search);

  const route = createRouter<Routes>(
    ROUTE_LIST,
    {
      ...accountHandlers({
        ledger: postings,
        settings: new SettingsService(deps.settings, { ...commandOptions, ...intake }),
        reads: new EntryReadService(deps.entryReads),
        search,
      }),
      ...journalHandlers(
        new JournalService(deps.journal, { readers: config.journalReaders ?? [] }),
        statements,
        clock,
      ),
      ...statementHandlers(statements, clock),
      ...monitorHandlers(new MonitorService(deps.monitors, commandOptions)),
      ...transferHandlers(transfers),
      ...holdHandlers(new HoldService(deps.holds, deps.movements, commandOptions), clock),
      ...ledgerTransactionHandlers(ledgerTransactions),
      ...reversalHandlers(new ReversalService(deps.reversals, deps.movements, commandOptions)),
      ...batchHandlers(batches),
      ...exportHandlers(tasks, results, clock),
      ...callbackHandlers(callbacks, deps.callbackSecrets, clock, log, metrics),
      ...webhookHandlers(deps, commandOptions, clock),
      ...healthHandlers(new HealthService(deps.health, clock)),
      ...searchHandlers(search),
      ...documentHandlers(config),
    },
    clock,
  );

  return async (event, context) => {
    const started = performance.now();
    const fields = correlationFields(event);
    let result: HttpResult;
    try {
      result = await withInvocation(invocationOf(clock().getTime(), context), () => route(event));
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
    const ms = Math.round(performance.now() - started);
    log.info('request', { ...fields, status: result.statusCode, replayed, ms });
    return result;
  };
}

/** Webhook endpoints and their deliveries (docs/contract.md §32). */
function webhookHandlers(
  deps: HttpAppDeps,
  commandOptions: CommandServiceOptions,
  clock: () => Date,
) {
  const endpoints = new WebhookEndpointService(deps.webhookEndpoints, {
    ...commandOptions,
    ...deps.webhookSecurity,
    resume: resumeDeliveries(deps.webhookDeliveries, deps.webhookQueue),
  });
  const deliveries = new WebhookDeliveryService(
    endpoints,
    deps.webhookDeliveries,
    deps.webhookQueue,
  );
  return {
    ...webhookEndpointHandlers(endpoints, clock),
    ...webhookDeliveryHandlers(deliveries),
  };
}

/**
 * The invocation a request runs in (docs/contract.md §25): from the Lambda context's remaining
 * time, or the deployed timeout where there is no context (the local stack emulates it).
 */
function invocationOf(nowMs: number, context: HttpContext | undefined): Invocation {
  const remaining = context?.getRemainingTimeInMillis() ?? LEDGER_FUNCTION_TIMEOUT_SECONDS * 1000;
  return { startedAtMs: nowMs, endsAtMs: nowMs + remaining };
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

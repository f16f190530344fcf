import { lambdaTelemetry } from '../../aws/telemetry';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { loadConfig } from '../shared/config';
import { composeReconciler } from './compose';

/** Leaves headroom under the function's 15-minute timeout (lib/constructs/schedules/reconciler.ts). */
const RECONCILE_BUDGET_MS = 12 * 60_000;

// Built once per container; a missing variable fails the cold start loudly.
const config = loadConfig(process.env);
const telemetry = lambdaTelemetry(SERVICE_NAMES.reconciler);

const reconcile = composeReconciler({
  config,
  dynamo: createDynamoClient(),
  log: telemetry.log,
  metrics: telemetry.metrics,
  budgetMs: RECONCILE_BUDGET_MS,
});

/** Invoked by the hourly EventBridge schedule; the event itself carries nothing needed. */
export const handler = telemetry.instrument(async (_event: unknown) => {
  await reconcile();
});

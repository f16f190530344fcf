import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { lambdaTelemetry } from '../../aws/telemetry';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { loadConfig } from '../shared/config';
import { composeSweeper } from './compose';
import { sweeperEnv } from './env';

/** Leaves headroom under the function's 60 s timeout (lib/constructs/schedules/sweeper.ts). */
const SWEEP_BUDGET_MS = 40_000;

// Built once per container; a missing variable fails the cold start loudly.
const config = loadConfig(process.env, sweeperEnv);
const telemetry = lambdaTelemetry(SERVICE_NAMES.sweeper);

const sweep = composeSweeper({
  config,
  dynamo: createDynamoClient(),
  sns: new SNSClient({}),
  sqs: new SQSClient({}),
  log: telemetry.log,
  metrics: telemetry.metrics,
  budgetMs: SWEEP_BUDGET_MS,
});

/** Invoked by the EventBridge schedule every minute; the event itself carries nothing needed. */
export const handler = telemetry.instrument(async (_event: unknown) => {
  await sweep();
});

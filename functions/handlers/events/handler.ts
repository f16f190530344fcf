import { SQSClient } from '@aws-sdk/client-sqs';
import { lambdaTelemetry } from '../../aws/telemetry';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { loadConfig } from '../shared/config';
import { composeEventsHandler } from './compose';
import { eventsEnv } from './env';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env, eventsEnv);
const telemetry = lambdaTelemetry(SERVICE_NAMES.events);

export const handler = telemetry.instrument(
  composeEventsHandler({
    config,
    dynamo: createDynamoClient(),
    sqs: new SQSClient({}),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);

import { SQSClient } from '@aws-sdk/client-sqs';
import { loadConfig } from '../config';
import { SERVICE_NAMES } from '../observability/metrics';
import { lambdaTelemetry } from '../observability/powertools';
import { createDynamoClient } from '../store/dynamo-client';
import { composeEventsHandler } from './compose';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env, 'events');
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

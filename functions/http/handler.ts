import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { loadConfig } from '../config';
import { SERVICE_NAMES } from '../observability/metrics';
import { lambdaTelemetry } from '../observability/powertools';
import { callbackSecretsFrom, composeHttpHandler } from './compose';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env, 'http');
const telemetry = lambdaTelemetry(SERVICE_NAMES.http);

export const handler = telemetry.instrument(
  composeHttpHandler({
    config,
    dynamo: new DynamoDBClient({}),
    callbackSecrets: callbackSecretsFrom(config.callbackSecrets),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);

import { loadConfig } from '../config';
import { SERVICE_NAMES } from '../observability/metrics';
import { lambdaTelemetry } from '../observability/powertools';
import { callbackSecretsFrom } from '../secrets/secrets-manager';
import { createDynamoClient } from '../store/dynamo-client';
import { composeHttpHandler } from './compose';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env, 'http');
const telemetry = lambdaTelemetry(SERVICE_NAMES.http);

export const handler = telemetry.instrument(
  composeHttpHandler({
    config,
    dynamo: createDynamoClient(),
    callbackSecrets: callbackSecretsFrom(config.callbackSecrets),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);

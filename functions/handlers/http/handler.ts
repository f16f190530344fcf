import { lambdaTelemetry } from '../../aws/powertools';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { callbackSecretsFrom } from '../shared/composition';
import { loadConfig } from '../shared/config';
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

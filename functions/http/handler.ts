import { loadConfig } from '../config';
import { SERVICE_NAMES } from '../observability/metrics';
import { lambdaTelemetry } from '../observability/powertools';
import { type CallbackSecrets, staticCallbackSecrets } from '../secrets/callback-secrets';
import { secretsManagerCallbackSecrets } from '../secrets/secrets-manager';
import { createDynamoClient } from '../store/dynamo-client';
import { createDynamoHttpApp } from './dynamo-app';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env);

function callbackSecrets(env: NodeJS.ProcessEnv): CallbackSecrets {
  if (env.CALLBACK_SECRETS_ARN) return secretsManagerCallbackSecrets(env.CALLBACK_SECRETS_ARN);
  if (env.CALLBACK_SECRETS) return staticCallbackSecrets(env.CALLBACK_SECRETS);
  throw new Error('Invalid configuration: set CALLBACK_SECRETS_ARN (or CALLBACK_SECRETS)');
}

const telemetry = lambdaTelemetry(SERVICE_NAMES.http);

export const handler = telemetry.instrument(
  createDynamoHttpApp({
    client: createDynamoClient(),
    config,
    callbackSecrets: callbackSecrets(process.env),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);

import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { signedSqsWebhookQueue } from '../../aws/sqs/signed-queue';
import { lambdaTelemetry } from '../../aws/telemetry';
import { deployedWebhookSecurity } from '../../aws/webhook-security';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { callbackSecretsEnv } from '../shared/callback-secrets-env';
import { callbackSecretsFrom } from '../shared/composition';
import { loadConfig } from '../shared/config';
import { loadWebhookHttpSettings } from '../webhooks/config';
import { composeHttpHandler } from './compose';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadConfig(process.env, callbackSecretsEnv);
const webhooks = loadWebhookHttpSettings(process.env);
const telemetry = lambdaTelemetry(SERVICE_NAMES.http);

export const handler = telemetry.instrument(
  composeHttpHandler({
    config,
    dynamo: createDynamoClient(),
    callbackSecrets: callbackSecretsFrom(config.callbackSecrets),
    webhookSecurity: deployedWebhookSecurity(webhooks.webhookSealingKeyArn),
    webhookQueue: signedSqsWebhookQueue({
      queueUrl: webhooks.webhookQueueUrl,
      region: process.env.AWS_REGION ?? 'us-east-1',
      credentials: defaultProvider(),
    }),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);

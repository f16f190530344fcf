import { SQSClient } from '@aws-sdk/client-sqs';
import { lambdaTelemetry } from '../../aws/telemetry';
import { deployedWebhookSecurity } from '../../aws/webhook-security';
import { SERVICE_NAMES } from '../../domain/shared/metrics';
import { createDynamoClient } from '../../dynamodb/table/client';
import { composeWebhookDeliveryHandler } from './compose';
import { loadWebhooksConfig } from './config';

// Built once per container: configuration is validated at cold start and fails loudly.
const config = loadWebhooksConfig(process.env);
const telemetry = lambdaTelemetry(SERVICE_NAMES.webhooks);

export const handler = telemetry.instrument(
  composeWebhookDeliveryHandler({
    config,
    dynamo: createDynamoClient(),
    sqs: new SQSClient({}),
    security: deployedWebhookSecurity(config.webhookSealingKeyArn),
    log: telemetry.log,
    metrics: telemetry.metrics,
  }),
);

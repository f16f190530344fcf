import { createSqsWebhookQueue } from '../functions/aws/sqs/webhook-queue';
import { localWebhookSecurity } from '../functions/aws/webhook-security';
import { LOCAL_STAGE } from '../functions/contract/journal';
import { MAX_RECEIVE_COUNT } from '../functions/contract/names';
import { WEBHOOK_DELIVERY_TIMEOUT_MS } from '../functions/contract/webhooks';
import type { Log } from '../functions/domain/shared/log';
import type { WebhookQueue } from '../functions/domain/webhooks/delivery-port';
import { composeWebhookDeliveryHandler } from '../functions/handlers/webhooks/compose';
import type { WebhookDeliveryHandler } from '../functions/handlers/webhooks/consumer';
import type { LocalResources } from './resources';
import type { Trigger } from './triggers/trigger';

/**
 * The webhook delivery function (docs/contract.md §32) on the local `webhook-deliveries`, built
 * by its composition as its Lambda handler builds it: the local sealing key and URL rules
 * (loopback http allowed), the local retry schedule (LOCAL_WEBHOOK_RETRIES unless overridden).
 */
export function localWebhookDeliveryHandler(
  local: Pick<LocalResources, 'config' | 'dynamo' | 'sqs' | 'queues' | 'webhooks'>,
  log: Log,
): WebhookDeliveryHandler {
  const security = localWebhookSecurity();
  return composeWebhookDeliveryHandler({
    config: {
      ...local.config,
      webhookQueueUrl: local.queues.webhookDeliveries.url,
      // Locally the key itself is LOCAL_WEBHOOK_SEALING_KEY (no Secrets Manager).
      webhookSealingKeyArn: '',
      stage: LOCAL_STAGE,
      retries: local.webhooks.retries,
      disableAfterFailures: local.webhooks.disableAfterFailures,
    },
    dynamo: local.dynamo,
    sqs: local.sqs,
    security,
    log,
  });
}

/** The HTTP function's queue for manual retries and resumed endpoints, when the stack has one. */
export function localWebhookQueue(local: Partial<Pick<LocalResources, 'sqs' | 'queues'>>): {
  webhookQueue?: WebhookQueue;
} {
  if (!local.sqs || !local.queues) return {};
  return { webhookQueue: createSqsWebhookQueue(local.sqs, local.queues.webhookDeliveries.url) };
}

/** A message stays hidden past one POST's timeout, so a slow delivery is not handed out twice. */
const visibilitySeconds = (sqsVisibility: number) =>
  Math.ceil(WEBHOOK_DELIVERY_TIMEOUT_MS / 1000) + sqsVisibility;

/** As lib/constructs/webhooks/webhook-delivery.ts wires it: batches of 10, 10 at once. */
export const WEBHOOK_DELIVERY_TRIGGER: Trigger = {
  kind: 'queue',
  name: 'webhook delivery',
  queue: 'webhookDeliveries',
  batchSize: () => 10,
  maxConcurrency: () => 10,
  visibilityTimeoutSeconds: (settings) => visibilitySeconds(settings.sqsVisibilityTimeoutSeconds),
  tags: { trigger: 'poller', function: 'webhooks' },
  handler: ({ resources }, log) => localWebhookDeliveryHandler(resources, log),
  banner: {
    label: 'Webhooks',
    text: ({ queues, settings, topics }) => {
      const { baseDelaySeconds, maxDelaySeconds, retryWindowSeconds } = settings.webhooks.retries;
      return `SNS ${topics.journal.name} -> ${queues.webhookDeliveries.name} (raw delivery) -> the webhook delivery function (receiver: npm run cli -- webhooks listen): signed POSTs per endpoint in journal order per account; retries after up to ${baseDelaySeconds}·2^n s (at most ${maxDelaySeconds} s) for ${retryWindowSeconds} s; ${queues.webhookDeliveriesDeadLetters.name} after ${MAX_RECEIVE_COUNT} receives`;
    },
  },
};

import type { SQSClient } from '@aws-sdk/client-sqs';
import { httpsWebhookSender } from '../../aws/https-webhook-sender';
import { createSqsWebhookQueue } from '../../aws/sqs/webhook-queue';
import { journalEventSource } from '../../contract/journal';
import type { WebhookQueue, WebhookSender } from '../../domain/webhooks/delivery-port';
import type { WebhookSecurity } from '../../domain/webhooks/service';
import { WebhookDeliveryWorker } from '../../domain/webhooks/worker';
import { createWebhookDeliveryStore } from '../../dynamodb/webhooks/delivery-store';
import { resolveRuntime, type TableComposition, tableOptions } from '../shared/composition';
import type { WebhooksConfig } from './config';
import { createWebhookDeliveryConsumer, type WebhookDeliveryHandler } from './consumer';

export interface WebhooksComposition extends TableComposition<WebhooksConfig> {
  /** Where `config.webhookQueueUrl` is; unused when `queue` is given. */
  readonly sqs?: SQSClient;
  /** URL checks and secret sealing: deployed or the local stack's. */
  readonly security: WebhookSecurity;
  /** @default HTTPS POSTs (httpsWebhookSender) */
  readonly sender?: WebhookSender;
  /** @default the SQS queue at `config.webhookQueueUrl` */
  readonly queue?: WebhookQueue;
  /** The jitter's source (tests). @default Math.random */
  readonly random?: () => number;
}

/**
 * The webhook delivery function (docs/contract.md §32): the delivery queue → signed POSTs in
 * journal order per (endpoint, account), retried with backoff, endpoints disabled after too
 * many failures. Its own function: the HTTP bundle carries no sender.
 */
export function composeWebhookDeliveryHandler(
  options: WebhooksComposition,
): WebhookDeliveryHandler {
  const { clock, log, metrics, newId } = resolveRuntime(options);
  const { config } = options;
  const port = createWebhookDeliveryStore({
    ...tableOptions(options, metrics),
    source: journalEventSource(config.stage),
  });
  const queue = options.queue ?? sqsQueue(options);
  const worker = new WebhookDeliveryWorker(port, options.sender ?? httpsWebhookSender, queue, {
    retries: config.retries,
    disableAfterFailures: config.disableAfterFailures,
    ...options.security,
    clock,
    newId,
    metrics,
    ...(options.random ? { random: options.random } : {}),
  });
  return createWebhookDeliveryConsumer({ worker, log });
}

function sqsQueue(options: WebhooksComposition): WebhookQueue {
  if (!options.sqs) throw new Error('the webhook delivery function needs an SQS client or a queue');
  return createSqsWebhookQueue(options.sqs, options.config.webhookQueueUrl);
}

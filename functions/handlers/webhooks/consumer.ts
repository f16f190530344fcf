import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { errorFields, type Log } from '../../domain/shared/log';
import type { WebhookDeliveryWorker } from '../../domain/webhooks/worker';
import { parseWebhookMessage } from '../../schemas/webhooks/messages';

export type WebhookDeliveryHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/**
 * The delivery function's SQS consumer (docs/contract.md §32; ReportBatchItemFailures): each
 * message — a journal topic event, a wake or a retry — is handled on its own, at once; one
 * that fails is redelivered (its writes are conditional, so a repeat is harmless) and, after
 * the queue's receives, dead-lettered. A message that is none of these can never succeed: it is
 * logged and dropped.
 */
export function createWebhookDeliveryConsumer(deps: {
  readonly worker: Pick<WebhookDeliveryWorker, 'onEvent' | 'onWake'>;
  readonly log: Log;
}): WebhookDeliveryHandler {
  const { worker, log } = deps;
  return async (event) => {
    const failures: string[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const message = parseWebhookMessage(record.body);
        if (!message) {
          log.error('webhook queue message is neither an event nor a wake; dropped', {
            messageId: record.messageId,
          });
          return;
        }
        try {
          if (message.kind === 'event') await worker.onEvent(message.event, message.raw);
          else await worker.onWake(message.wake);
        } catch (error) {
          log.error('webhook delivery failed; will be redelivered', {
            messageId: record.messageId,
            ...errorFields(error),
          });
          failures.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

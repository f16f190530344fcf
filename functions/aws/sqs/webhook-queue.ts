import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { UnavailableError } from '../../domain/shared/errors';
import type { WebhookQueue } from '../../domain/webhooks/delivery-port';

/**
 * The webhook delivery queue (docs/contract.md §32): wakes and retries, delayed up to 900 s.
 * A send that fails is `503` on a route and a redelivered message in the delivery function.
 */
export function createSqsWebhookQueue(client: SQSClient, queueUrl: string): WebhookQueue {
  return {
    async send(message, delaySeconds) {
      try {
        await client.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: JSON.stringify(message),
            DelaySeconds: Math.min(900, Math.max(0, Math.round(delaySeconds))),
          }),
        );
      } catch (error) {
        throw new UnavailableError(error);
      }
    },
  };
}

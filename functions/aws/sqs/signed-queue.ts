import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { UnavailableError } from '../../domain/shared/errors';
import type { WebhookQueue } from '../../domain/webhooks/delivery-port';
import { signedJsonCall } from '../signed-json';

/**
 * The webhook queue for the HTTP function (manual retries, resumed endpoints): one SigV4-signed
 * SQS `SendMessage` (JSON protocol) over fetch, so the HTTP bundle carries no SQS client
 * (docs/contract.md §32: it must not grow). A failure is `503`.
 */
export function signedSqsWebhookQueue(options: {
  readonly queueUrl: string;
  readonly region: string;
  readonly credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
}): WebhookQueue {
  const call = signedJsonCall({
    service: 'sqs',
    region: options.region,
    endpoint: new URL(options.queueUrl).origin,
    jsonVersion: '1.0',
    credentials: options.credentials,
  });
  return {
    async send(message, delaySeconds) {
      const res = await call('AmazonSQS.SendMessage', {
        QueueUrl: options.queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: Math.min(900, Math.max(0, Math.round(delaySeconds))),
      }).catch((error: unknown) => {
        throw new UnavailableError(error);
      });
      if (!res.ok) throw new UnavailableError(new Error(`SQS SendMessage: ${res.status}`));
    },
  };
}

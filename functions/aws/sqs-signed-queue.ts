import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { UnavailableError } from '../domain/shared/errors';
import type { WebhookQueue } from '../domain/webhooks/delivery-port';

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data): string | Buffer =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** SHA-256 / HMAC-SHA256 from node:crypto, as SignatureV4 takes it. */
class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: Data) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined
      ? createHash('sha256')
      : createHmac('sha256', bytes(this.secret));
  }
  update(data: Data): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

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
  const signer = new SignatureV4({
    service: 'sqs',
    region: options.region,
    credentials: options.credentials,
    sha256: Sha256,
  });
  const endpoint = new URL(options.queueUrl);
  return {
    async send(message, delaySeconds) {
      const body = JSON.stringify({
        QueueUrl: options.queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: Math.min(900, Math.max(0, Math.round(delaySeconds))),
      });
      const signed = await signer.sign({
        method: 'POST',
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        path: '/',
        headers: {
          host: endpoint.host,
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'AmazonSQS.SendMessage',
        },
        body,
      });
      const res = await fetch(`${endpoint.origin}/`, {
        method: 'POST',
        headers: signed.headers as Record<string, string>,
        body,
      }).catch((error: unknown) => {
        throw new UnavailableError(error);
      });
      if (!res.ok) throw new UnavailableError(new Error(`SQS SendMessage: ${res.status}`));
    },
  };
}

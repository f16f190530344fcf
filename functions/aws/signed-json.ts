import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

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

export interface SignedJsonOptions {
  /** The SigV4 service name, e.g. `sqs`, `secretsmanager`. */
  readonly service: string;
  readonly region: string;
  /** e.g. `https://sqs.eu-west-1.amazonaws.com`; the call POSTs to its `/`. */
  readonly endpoint: string;
  /** `1.0` (SQS) or `1.1` (Secrets Manager): the service's AWS JSON protocol version. */
  readonly jsonVersion: '1.0' | '1.1';
  readonly credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** @default globalThis.fetch (tests pass their own) */
  readonly fetch?: typeof fetch;
}

/**
 * One SigV4-signed call of an AWS JSON-protocol API over fetch: what the HTTP function needs of
 * SQS and Secrets Manager, without their SDK clients in its bundle (docs/benchmarks.md). Returns
 * the raw response; the caller judges its status. A network failure rejects as fetch does.
 */
export function signedJsonCall(options: SignedJsonOptions) {
  const signer = new SignatureV4({
    service: options.service,
    region: options.region,
    credentials: options.credentials,
    sha256: Sha256,
  });
  const endpoint = new URL(options.endpoint);
  const send = options.fetch ?? fetch;
  return async (target: string, input: unknown): Promise<Response> => {
    const body = JSON.stringify(input);
    const signed = await signer.sign({
      method: 'POST',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      path: '/',
      headers: {
        host: endpoint.host,
        'content-type': `application/x-amz-json-${options.jsonVersion}`,
        'x-amz-target': target,
      },
      body,
    });
    return send(`${endpoint.origin}/`, {
      method: 'POST',
      headers: signed.headers as Record<string, string>,
      body,
    });
  };
}

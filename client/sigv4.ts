import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { Middleware } from 'openapi-fetch';

/** What SignatureV4 takes as credentials: fixed keys or a provider (e.g. the SDK's chain). */
export type AwsCredentials = ConstructorParameters<typeof SignatureV4>[0]['credentials'];

/** SHA-256 / HMAC-SHA256 in the shape SignatureV4 expects, from node:crypto. */
class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    if (this.secret === undefined) return createHash('sha256');
    const key =
      typeof this.secret === 'string'
        ? this.secret
        : ArrayBuffer.isView(this.secret)
          ? Buffer.from(this.secret.buffer, this.secret.byteOffset, this.secret.byteLength)
          : Buffer.from(this.secret);
    return createHmac('sha256', key);
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(
      typeof data === 'string'
        ? data
        : ArrayBuffer.isView(data)
          ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
          : Buffer.from(data),
    );
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

/**
 * Signs every request with AWS Signature V4 for an API Gateway route that uses IAM
 * authorization (service `execute-api`): method, path, query, host and the exact body bytes.
 */
export function sigV4Middleware(options: {
  readonly region: string;
  readonly credentials: AwsCredentials;
  readonly service?: string;
}): Middleware {
  const signer = new SignatureV4({
    service: options.service ?? 'execute-api',
    region: options.region,
    credentials: options.credentials,
    sha256: NodeSha256,
    // API Gateway needs no x-amz-content-sha256 header (the body hash is in the signature).
    applyChecksum: false,
  });
  return {
    async onRequest({ request }) {
      const url = new URL(request.url);
      const body =
        request.body === null ? undefined : Buffer.from(await request.clone().arrayBuffer());
      const headers: Record<string, string> = { host: url.host };
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const query = Object.fromEntries(
        [...url.searchParams.keys()].map((name) => [name, url.searchParams.getAll(name)]),
      );
      const signed = await signer.sign({
        method: request.method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port === '' ? {} : { port: Number(url.port) }),
        path: url.pathname,
        query,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      // fetch sets Host itself, to the same url.host that was signed.
      const { host: _host, ...outgoing } = signed.headers;
      return new Request(request, { headers: outgoing, ...(body === undefined ? {} : { body }) });
    },
  };
}

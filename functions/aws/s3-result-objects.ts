import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type {
  AwsCredentialIdentity,
  AwsCredentialIdentityProvider,
  SourceData,
} from '@smithy/types';
import type { ResultObjectPort } from '../domain/exports/port';
import { InternalError, UnavailableError } from '../domain/shared/errors';

export interface S3ResultObjectsOptions {
  readonly bucket: string;
  readonly region: string;
  readonly credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /**
   * A path-style endpoint (`http://127.0.0.1:4566`: the local emulator, where presigned URLs
   * then download with plain curl). @default the bucket's virtual-hosted AWS endpoint
   */
  readonly endpoint?: string;
  readonly fetch?: typeof fetch;
}

/** SHA-256 (or its HMAC with a key) for the signer, from node:crypto. */
class NodeSha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
  reset(): void {}
}

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string' || data instanceof Uint8Array) return data;
  return ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
}

/**
 * The HTTP API's view of export objects (docs/contract.md §12), signed with SigV4 directly (no
 * S3 client: it would cost the HTTP bundle ~120 KB): a HEAD that tells a kept object from one the
 * lifecycle rule deleted, and a presigned GET computed locally. Both need only `s3:GetObject` on
 * the export prefix (plus `s3:ListBucket`, so a missing key is 404 rather than 403).
 */
export function createS3ResultObjects(options: S3ResultObjectsOptions): ResultObjectPort {
  const signer = new SignatureV4({
    service: 's3',
    region: options.region,
    credentials: options.credentials,
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const base = options.endpoint
    ? new URL(`${options.endpoint.replace(/\/+$/, '')}/${options.bucket}/`)
    : new URL(`https://${options.bucket}.s3.${options.region}.amazonaws.com/`);
  const send = options.fetch ?? fetch;

  const requestFor = (method: 'GET' | 'HEAD', key: string) => {
    const path = `${base.pathname}${key.split('/').map(encodeURIComponent).join('/')}`;
    return {
      method,
      protocol: base.protocol,
      hostname: base.hostname,
      ...(base.port ? { port: Number(base.port) } : {}),
      path,
      query: {},
      headers: { host: base.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    };
  };
  const urlOf = (request: { path: string; query?: Record<string, unknown> }) => {
    const url = new URL(request.path, base.origin);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (typeof value === 'string') url.searchParams.set(name, value);
    }
    return url.toString();
  };

  return {
    async exists(key) {
      let status: number;
      try {
        const signed = await signer.sign(requestFor('HEAD', key));
        const { host: _host, ...headers } = signed.headers;
        const response = await send(urlOf(signed), { method: 'HEAD', headers });
        status = response.status;
      } catch (error) {
        throw new UnavailableError(error);
      }
      if (status === 200) return true;
      if (status === 404) return false;
      if (status === 429 || status === 503 || status >= 500) {
        throw new UnavailableError(new Error(`S3 HEAD answered ${status}`));
      }
      throw new InternalError(new Error(`S3 HEAD answered ${status}`));
    },
    async presignGet(key, expiresIn) {
      const { headers: _unsigned, ...request } = requestFor('GET', key);
      const presigned = await signer.presign(
        { ...request, headers: { host: base.host } },
        { expiresIn },
      );
      return urlOf(presigned);
    },
  };
}

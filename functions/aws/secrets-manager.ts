import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import type { CallbackSecrets } from '../domain/callbacks/port';
import { UnavailableError } from '../domain/shared/errors';
import { parseSecretMap, type SecretMap, secretsOf } from '../schemas/exports/callbacks';
import { signedJsonCall } from './signed-json';

export interface SecretReaderOptions {
  /** @default the default chain (on Lambda: the function's role, from its environment) */
  readonly credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** @default Date.now */
  readonly now?: () => number;
}

/** Secrets Manager's endpoint for a secret ARN (its region and partition), else `AWS_REGION`'s. */
export function secretsManagerEndpoint(secretId: string): { region: string; endpoint: string } {
  const [, partition = 'aws', , arnRegion] = secretId.startsWith('arn:') ? secretId.split(':') : [];
  const region = arnRegion || process.env.AWS_REGION || 'us-east-1';
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return { region, endpoint: `https://secretsmanager.${region}.${domain}` };
}

/**
 * A secret's string value, read by one signed `GetSecretValue` over fetch (no Secrets Manager
 * client in the bundle) and kept per container for `maxAgeSeconds`, so a rotation reaches every
 * container within that time. Concurrent readers share one call; a failed read is not kept.
 */
export function secretStringReader(
  secretId: string,
  maxAgeSeconds: number,
  options: SecretReaderOptions = {},
): () => Promise<string> {
  const { region, endpoint } = secretsManagerEndpoint(secretId);
  const call = signedJsonCall({
    service: 'secretsmanager',
    region,
    endpoint,
    jsonVersion: '1.1',
    credentials: options.credentials ?? defaultProvider(),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const now = options.now ?? Date.now;
  let kept: { value: Promise<string>; readAt: number } | undefined;
  const read = async () => {
    const res = await call('secretsmanager.GetSecretValue', { SecretId: secretId });
    if (!res.ok) throw new Error(`Secrets Manager GetSecretValue answered ${res.status}`);
    const { SecretString } = (await res.json()) as { SecretString?: unknown };
    if (typeof SecretString !== 'string') throw new Error('the secret has no string value');
    return SecretString;
  };
  return () => {
    if (!kept || now() - kept.readAt >= maxAgeSeconds * 1000) {
      const value = read();
      const entry = { value, readAt: now() };
      kept = entry;
      value.catch(() => {
        if (kept === entry) kept = undefined;
      });
    }
    return kept.value;
  };
}

/**
 * The callback secrets in Secrets Manager, read again after `maxAgeSeconds` (a rotation adds the
 * new secret beside the old).
 */
export function secretsManagerCallbackSecrets(
  secretId: string,
  maxAgeSeconds = 60,
  options: SecretReaderOptions = {},
): CallbackSecrets {
  const readDocument = secretStringReader(secretId, maxAgeSeconds, options);
  // Parse the document again only when it changed, not per callback.
  let parsed: { document: string; map: SecretMap } | undefined;
  return {
    async secretsFor(applicationId) {
      // Any failure to learn the secrets is temporary for the sender: 503 with Retry-After, so
      // the worker retries instead of dropping the callback (docs/contract.md §7).
      try {
        const document = await readDocument();
        if (parsed?.document !== document) parsed = { document, map: parseSecretMap(document) };
        return secretsOf(parsed.map, applicationId);
      } catch (error) {
        throw new UnavailableError(error);
      }
    },
  };
}

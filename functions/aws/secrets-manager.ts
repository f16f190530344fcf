import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { CallbackSecrets } from '../domain/callbacks/port';
import { UnavailableError } from '../domain/shared/errors';
import { parseSecretMap, type SecretMap, secretsOf } from '../schemas/exports/callbacks';

/**
 * Secrets Manager, cached per container by Powertools Parameters for `maxAgeSeconds`, so a
 * rotation (new secret added beside the old) reaches every container within that time.
 */
export function secretsManagerCallbackSecrets(
  secretId: string,
  maxAgeSeconds = 60,
): CallbackSecrets {
  // Powertools caches the document; parse it again only when it changed, not per callback.
  let parsed: { document: string; map: SecretMap } | undefined;
  return {
    async secretsFor(applicationId) {
      // Any failure to learn the secrets is temporary for the sender: 503 with Retry-After, so
      // the worker retries instead of dropping the callback (docs/contract.md §7).
      try {
        const document = await getSecret(secretId, { maxAge: maxAgeSeconds });
        if (typeof document !== 'string') throw new Error('callback secret has no string value');
        if (parsed?.document !== document) parsed = { document, map: parseSecretMap(document) };
        return secretsOf(parsed.map, applicationId);
      } catch (error) {
        throw new UnavailableError(error);
      }
    },
  };
}

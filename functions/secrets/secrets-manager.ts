import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { type CallbackSecrets, parseSecretMap } from './callback-secrets';

/**
 * Secrets Manager, cached per container by Powertools Parameters for `maxAgeSeconds`, so a
 * rotation (new secret added beside the old) reaches every container within that time.
 */
export function secretsManagerCallbackSecrets(
  secretId: string,
  maxAgeSeconds = 60,
): CallbackSecrets {
  return {
    async secretsFor(applicationId) {
      const document = await getSecret(secretId, { maxAge: maxAgeSeconds });
      if (typeof document !== 'string') throw new Error('callback secret has no string value');
      const map = parseSecretMap(document);
      return Object.hasOwn(map, applicationId) ? (map[applicationId] ?? []) : [];
    },
  };
}

import { lookup } from 'node:dns/promises';
import { LOCAL_WEBHOOK_SEALING_KEY } from '../contract/webhooks';
import { UnavailableError } from '../domain/shared/errors';
import { aesGcmSealer } from '../domain/webhooks/secrets';
import type { WebhookSecurity } from '../domain/webhooks/service';
import { type SecretReaderOptions, secretStringReader } from './secrets-manager';

/** Every A and AAAA address of a host, as the socket would resolve it. */
export const resolveHost = async (host: string): Promise<readonly string[]> =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Deployed (docs/contract.md §32): https only, hosts resolving to public addresses only;
 * secrets sealed under the data key in Secrets Manager (`WEBHOOK_SEALING_KEY_ARN`), itself
 * encrypted by the deployment's KMS key, cached per container.
 */
export function deployedWebhookSecurity(
  sealingKeyArn: string,
  options: SecretReaderOptions = {},
): WebhookSecurity {
  const readKey = secretStringReader(sealingKeyArn, 3600, options);
  return {
    urls: { mode: 'deployed', resolve: resolveHost },
    sealer: aesGcmSealer(async () => {
      try {
        const key = await readKey();
        if (key.length < 32) throw new Error('sealing key too short');
        return key;
      } catch (error) {
        throw new UnavailableError(error);
      }
    }),
  };
}

/** The local stack and tests: loopback http allowed, a fixed local key (never deployed). */
export const localWebhookSecurity = (): WebhookSecurity => ({
  urls: { mode: 'local', resolve: resolveHost },
  sealer: aesGcmSealer(async () => LOCAL_WEBHOOK_SEALING_KEY),
});

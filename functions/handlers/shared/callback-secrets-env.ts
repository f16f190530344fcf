import { parseSecretMap } from '../../schemas/exports/callbacks';
import type { OwnConfig } from './config-types';
import { envSchema, optionalText, Refused } from './env-rules';

/** The HTTP function's own variables (the export worker reads them too): its callback secrets. */
export const callbackSecretsEnv = envSchema(
  {
    CALLBACK_SECRETS_ARN: optionalText('CALLBACK_SECRETS_ARN'),
    CALLBACK_SECRETS: optionalText('CALLBACK_SECRETS'),
  },
  (e): OwnConfig<'http'> | Refused => {
    if (e.CALLBACK_SECRETS_ARN) return { callbackSecrets: { secretArn: e.CALLBACK_SECRETS_ARN } };
    if (!e.CALLBACK_SECRETS)
      return new Refused(['CALLBACK_SECRETS_ARN (or CALLBACK_SECRETS) must be set']);
    try {
      return { callbackSecrets: { document: parseSecretMap(e.CALLBACK_SECRETS) } };
    } catch (error) {
      return new Refused([`CALLBACK_SECRETS: ${(error as Error).message}`]);
    }
  },
);

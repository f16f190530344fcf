import * as z from 'zod';
import { parseSecretMap } from '../../schemas/exports/callbacks';
import { lazySchema } from '../../schemas/lazy';
import type { OwnConfig } from './config-types';
import { optionalText } from './env-rules';

/** The HTTP function's own variables (the export worker reads them too): its callback secrets. */
export const callbackSecretsEnv = lazySchema(() =>
  z
    .object({ CALLBACK_SECRETS_ARN: optionalText, CALLBACK_SECRETS: optionalText })
    .transform((e, ctx): OwnConfig<'http'> => {
      if (e.CALLBACK_SECRETS_ARN) return { callbackSecrets: { secretArn: e.CALLBACK_SECRETS_ARN } };
      const path = e.CALLBACK_SECRETS ? 'CALLBACK_SECRETS' : 'CALLBACK_SECRETS_ARN';
      try {
        if (e.CALLBACK_SECRETS)
          return { callbackSecrets: { document: parseSecretMap(e.CALLBACK_SECRETS) } };
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: 'CALLBACK_SECRETS_ARN (or CALLBACK_SECRETS) must be set',
        });
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: `${path}: ${(error as Error).message}`,
        });
      }
      return z.NEVER;
    }),
);

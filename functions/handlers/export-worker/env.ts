import * as z from 'zod';
import { lazySchema } from '../../schemas/lazy';
import { callbackSecretsEnv } from '../shared/callback-secrets-env';
import type { OwnConfig } from '../shared/config-types';
import { url } from '../shared/env-rules';

/** The export worker's own variables: the API it reports to and its callback secrets. */
export const exportWorkerEnv = lazySchema(() =>
  z
    .object({ API_URL: url('API_URL', 'the HTTP API base URL') })
    .and(callbackSecretsEnv)
    .transform(
      (e): OwnConfig<'exportWorker'> => ({
        apiUrl: e.API_URL.replace(/\/+$/, ''),
        callbackSecrets: e.callbackSecrets,
      }),
    ),
);

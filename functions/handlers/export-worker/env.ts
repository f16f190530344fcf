import { callbackSecretsEnv } from '../shared/callback-secrets-env';
import type { OwnConfig } from '../shared/config-types';
import { bothOf, envSchema, url } from '../shared/env-rules';

/** The export worker's own variables: the API it reports to and its callback secrets. */
export const exportWorkerEnv = bothOf(
  envSchema({ API_URL: url('API_URL', 'the HTTP API base URL') }, (e) => e.API_URL),
  callbackSecretsEnv,
  (apiUrl, secrets): OwnConfig<'exportWorker'> => ({
    apiUrl: apiUrl.replace(/\/+$/, ''),
    callbackSecrets: secrets.callbackSecrets,
  }),
);

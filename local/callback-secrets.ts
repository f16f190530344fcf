import { DEFAULT_CALLBACK_APPLICATION_ID } from '../functions/contract/retention';

/** The local stack's demo application and its signing secret (printed at start; never for AWS). */
export const DEMO_CALLBACK_SECRET = 'local-demo-secret-0123456789abcdef';

/** `CALLBACK_SECRETS` when set, else the demo application with the demo secret. */
export function localCallbackSecretsJson(env: Record<string, string | undefined>): string {
  const given = env.CALLBACK_SECRETS?.trim();
  return given
    ? given
    : JSON.stringify({ [DEFAULT_CALLBACK_APPLICATION_ID]: [DEMO_CALLBACK_SECRET] });
}

import { parseArgs } from 'node:util';
import { APPLICATION_ID_PATTERN } from '../../functions/contract/names';
import { DEFAULT_CALLBACK_APPLICATION_ID } from '../../functions/contract/retention';
import { hmacKeyBytes } from '../../functions/domain/callbacks/keys';
import { messageOf } from '../../functions/domain/shared/log';
import { CALLBACK_SCHEMES, type CallbackScheme } from '../callbacks';

/** `npm run smoke -- --url <base> [--auth local|iam|jwt] …` (docs/deployment.md). */
export const SMOKE_USAGE = `usage: npm run smoke -- --url <base URL> [options]

  --url <base>              the API, e.g. http://127.0.0.1:3000 or the stage's invoke URL
  --auth local|iam|jwt      how to authenticate (default local)
  --principal <id>          local: the X-Principal-Id (default a fresh smoke-<uuid>)
  --region <region>         iam: the API's region (default AWS_REGION)
                            iam: credentials come from the AWS SDK's default chain
                            jwt: the token comes from SMOKE_JWT (kept out of shell history)
  --callback-secret <s>     also prove a signed callback round trip with this secret
                            (or SMOKE_CALLBACK_SECRET); without one that check is skipped
  --callback-app <id>       the callback application (default ${DEFAULT_CALLBACK_APPLICATION_ID})
  --callback-scheme <s>     callback-signature (default) or standard-webhooks (webhook-* headers)
  --concurrency <n>         parallel duplicates in the concurrency check (default 8)`;

export interface SmokeArgs {
  readonly url: string;
  readonly auth: 'local' | 'iam' | 'jwt';
  readonly principal: string | undefined;
  readonly region: string | undefined;
  readonly token: string | undefined;
  readonly callbackSecret: string | undefined;
  readonly callbackApp: string;
  readonly callbackScheme: CallbackScheme;
  readonly concurrency: number;
}

export class SmokeUsageError extends Error {}

export function parseSmokeArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): SmokeArgs | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        auth: { type: 'string' },
        principal: { type: 'string' },
        region: { type: 'string' },
        'callback-secret': { type: 'string' },
        'callback-app': { type: 'string' },
        'callback-scheme': { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new SmokeUsageError(messageOf(error));
  }
  if (values.help) return 'help';
  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const url = text('url');
  if (!url || !/^https?:\/\/[^\s]+$/.test(url))
    throw new SmokeUsageError('--url <http(s) base URL> is required');
  const auth = text('auth') ?? 'local';
  if (auth !== 'local' && auth !== 'iam' && auth !== 'jwt') {
    throw new SmokeUsageError('--auth must be local, iam or jwt');
  }
  const region = text('region') ?? env.AWS_REGION;
  if (auth === 'iam' && !region)
    throw new SmokeUsageError('--auth iam needs --region or AWS_REGION');
  const token = env.SMOKE_JWT?.trim() || undefined;
  if (auth === 'jwt' && !token) throw new SmokeUsageError('--auth jwt needs SMOKE_JWT');
  const callbackApp = text('callback-app') ?? DEFAULT_CALLBACK_APPLICATION_ID;
  if (!APPLICATION_ID_PATTERN.test(callbackApp))
    throw new SmokeUsageError('--callback-app is not an application id');
  const callbackScheme = text('callback-scheme') ?? 'callback-signature';
  if (!(CALLBACK_SCHEMES as readonly string[]).includes(callbackScheme)) {
    throw new SmokeUsageError(`--callback-scheme must be one of ${CALLBACK_SCHEMES.join(', ')}`);
  }
  const callbackSecret = text('callback-secret') ?? (env.SMOKE_CALLBACK_SECRET || undefined);
  if (callbackSecret !== undefined && hmacKeyBytes(callbackSecret) === undefined) {
    throw new SmokeUsageError('the callback secret whsec_… must be base64 after the prefix');
  }
  const concurrency = Number(text('concurrency') ?? '8');
  if (!Number.isInteger(concurrency) || concurrency < 2 || concurrency > 50) {
    throw new SmokeUsageError('--concurrency must be an integer from 2 to 50');
  }
  return {
    url,
    auth,
    principal: text('principal'),
    region,
    token,
    callbackSecret,
    callbackApp,
    callbackScheme: callbackScheme as CallbackScheme,
    concurrency,
  };
}

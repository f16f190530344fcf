import {
  hmacKeyBytes,
  parseSigningKey,
  SIGNING_KEY_PREFIX,
} from '../functions/domain/callbacks/keys';
import { oneOf, stringOption, type Values } from './args';
import { CALLBACK_SCHEMES, type CallbackScheme, type CallbackSigner } from './callbacks';
import { type Env, secretsFor } from './config';
import { UsageError } from './errors';

/**
 * Imported as a namespace (`signing.OPTIONS`, `signing.parse`, …).
 * How the commands that send callbacks (callback, worker, demo) sign them: either header set of
 * docs/contract.md §7, with an HMAC secret and/or (Standard Webhooks only) an ed25519 key.
 */
export const OPTIONS = {
  secret: { type: 'string' },
  scheme: { type: 'string' },
  'signing-key': { type: 'string' },
} as const;

export const HELP = `  --scheme <s>         callback-signature: Callback-Signature t=…,v1=<hex> (the default)
                       standard-webhooks: webhook-id/-timestamp/-signature, v1 with the secret
  --secret <secret>    HMAC secret, plain or whsec_<base64> (default: the application's secrets
                       in CALLBACK_SECRETS, else the local stack's demo secret for export-worker)
  --signing-key <k>    ${SIGNING_KEY_PREFIX}<base64> ed25519 key: signs v1a (implies standard-webhooks); the
                       server needs its whpk_ public key in CALLBACK_PUBLIC_KEYS (see keygen).
                       Without --secret it signs v1a only`;

export interface Args {
  readonly scheme: CallbackScheme | undefined;
  readonly secret: string | undefined;
  readonly signingKey: string | undefined;
}

export function parse(values: Values, command: string): Args {
  const scheme = oneOf(values, 'scheme', command, CALLBACK_SCHEMES);
  const secret = stringOption(values, 'secret');
  const signingKey = stringOption(values, 'signing-key');
  if (secret !== undefined && hmacKeyBytes(secret) === undefined) {
    throw new UsageError('--secret whsec_… must be base64 after the prefix', command);
  }
  if (signingKey !== undefined && parseSigningKey(signingKey) === undefined) {
    throw new UsageError(
      `--signing-key must be ${SIGNING_KEY_PREFIX}<base64 of a 32-byte ed25519 seed>`,
      command,
    );
  }
  if (signingKey !== undefined && scheme === 'callback-signature') {
    throw new UsageError(
      '--signing-key signs Standard Webhooks (v1a), not Callback-Signature',
      command,
    );
  }
  return { scheme, secret, signingKey };
}

/** The signer for callbacks of application `app`; throws a readable error when it has no key. */
export function signerFor(app: string, args: Args, env: Env): CallbackSigner {
  const key = args.signingKey === undefined ? undefined : parseSigningKey(args.signingKey);
  const signingKeys = key ? [key] : [];
  const secrets = key && args.secret === undefined ? [] : secretsFor(app, args.secret, env);
  return {
    scheme: args.scheme ?? (key ? 'standard-webhooks' : 'callback-signature'),
    secrets,
    signingKeys,
  };
}

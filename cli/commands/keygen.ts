import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  formatPublicKey,
  formatSigningKey,
  SECRET_PREFIX,
} from '../../functions/domain/callbacks/keys';
import { parseCommandArgs } from '../args';
import type { Command } from '../command';

const NAME = 'keygen';

/** A fresh ed25519 pair and an HMAC secret in the Standard Webhooks notations (docs/contract.md §7). */
export function generateCallbackKeys(): { signingKey: string; publicKey: string; secret: string } {
  const pair = generateKeyPairSync('ed25519');
  return {
    signingKey: formatSigningKey(pair.privateKey),
    publicKey: formatPublicKey(pair.publicKey),
    secret: `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`,
  };
}

export const keygenCommand: Command = {
  name: NAME,
  help: `Usage: npm run cli -- keygen

Prints new keys for signed callbacks (docs/contract.md §7), in the Standard Webhooks notation:
  whsk_…   ed25519 signing key: only the sender keeps it (callback/worker/demo --signing-key)
  whpk_…   its public key: the server's CALLBACK_PUBLIC_KEYS (on AWS, in the callback secret)
  whsec_…  a random 32-byte HMAC secret: CALLBACK_SECRETS and the sender (--secret)

Example (v1a, no shared secret on the server):
  CALLBACK_PUBLIC_KEYS='{"partner":["whpk_…"]}' npm start
  npm run cli -- callback --app partner --signing-key whsk_… --execution <uuid> --sequence 1`,
  async run(argv, ctx) {
    const { help } = parseCommandArgs(NAME, argv, {});
    if (help) {
      ctx.out(keygenCommand.help);
      return 0;
    }
    const keys = generateCallbackKeys();
    ctx.out(`signing key (sender only):           ${keys.signingKey}`);
    ctx.out(`public key (CALLBACK_PUBLIC_KEYS):    ${keys.publicKey}`);
    ctx.out(`HMAC secret (CALLBACK_SECRETS):       ${keys.secret}`);
    return 0;
  },
};

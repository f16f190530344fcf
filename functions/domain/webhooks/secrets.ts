import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_BYTES, WEBHOOK_SECRET_PREFIX } from '../../contract/webhooks';

/**
 * Webhook signing secrets (docs/contract.md §32): made here, sealed before they are stored (in
 * the endpoint item and in the stored answer of the request that showed them), opened to sign.
 */
export interface SecretSealer {
  seal(secret: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/** A new `whsec_` secret (Standard Webhooks: base64 of random bytes after the prefix). */
export const newWebhookSecret = (): string =>
  `${WEBHOOK_SECRET_PREFIX}${randomBytes(WEBHOOK_SECRET_BYTES).toString('base64')}`;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM under a key from `keyMaterial` (a KMS-protected data key deployed, the local
 * stack's fixed key locally): `v1.<base64 iv|tag|ciphertext>`.
 */
export function aesGcmSealer(keyMaterial: () => Promise<string>): SecretSealer {
  const key = async () =>
    createHash('sha256')
      .update(await keyMaterial())
      .digest();
  return {
    async seal(secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await key(), iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    async open(sealed) {
      const [version, payload] = sealed.split('.');
      if (version !== VERSION || payload === undefined) throw new Error('not a sealed secret');
      const bytes = Buffer.from(payload, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', await key(), bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const body = bytes.subarray(IV_BYTES + TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}

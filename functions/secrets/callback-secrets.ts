import * as z from 'zod';
import { isUsableCallbackKey, PUBLIC_KEY_PREFIX } from '../core/callback-keys';

/**
 * Active keys per application: `{ "<applicationId>": ["<secret>" | "whpk_…", …] }`. HMAC
 * secrets and `whpk_` public keys share one list (docs/contract.md §7);
 * functions/core/callback-keys.ts splits them.
 */
export interface CallbackSecrets {
  secretsFor(applicationId: string): Promise<readonly string[]>;
}

/** A secret of 16+ bytes (decoded bytes for `whsec_`), or a `whpk_` raw 32-byte public key. */
const Secret = z.string().refine(isUsableCallbackKey);
/**
 * `{ "<applicationId>": ["<secret>", …] }` (docs/contract.md §7). A single string is taken as a
 * one-element list: that is the shape CloudFormation generates for a fresh secret, so a new
 * deployment works before an operator rewrites the value as a list for rotation.
 */
const SecretMap = z.record(
  z.string().min(1),
  z.union([Secret.transform((s) => [s]), z.array(Secret).min(1)]),
);

/** Parses the secret document; a malformed one fails loudly instead of accepting nothing. */
export function parseSecretMap(json: string): Record<string, string[]> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    // No cause: the parser's message quotes the input, and the input is secret.
    throw new Error('callback secrets are not JSON');
  }
  const parsed = SecretMap.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      'callback secrets must be {"<applicationId>": ["<secret of 16+ bytes, or whsec_<base64>>" or "whpk_<base64 of a 32-byte ed25519 key>", ...]}',
    );
  }
  return parsed.data;
}

export type SecretMap = Readonly<Record<string, readonly string[]>>;

/** CALLBACK_PUBLIC_KEYS: the same shape, every entry a `whpk_` public key. */
export function parsePublicKeyMap(json: string): Record<string, string[]> {
  const map = parseSecretMap(json);
  if (Object.values(map).some((keys) => keys.some((k) => !k.startsWith(PUBLIC_KEY_PREFIX)))) {
    throw new Error('public keys must be {"<applicationId>": ["whpk_<base64 of 32 bytes>", ...]}');
  }
  return map;
}

/** Both documents as one: an application's secrets, then its public keys. */
export function mergeKeyMaps(a: SecretMap, b: SecretMap): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const map of [a, b]) {
    for (const [app, keys] of Object.entries(map)) merged[app] = [...(merged[app] ?? []), ...keys];
  }
  return merged;
}

/** An application's active secrets; none for an unknown (or inherited, like `constructor`) id. */
export function secretsOf(map: SecretMap, applicationId: string): readonly string[] {
  return Object.hasOwn(map, applicationId) ? (map[applicationId] ?? []) : [];
}

/** Secrets from a document already parsed (the local stack parses CALLBACK_SECRETS at start). */
export function fixedCallbackSecrets(map: SecretMap): CallbackSecrets {
  return { secretsFor: async (applicationId) => secretsOf(map, applicationId) };
}

/** Secrets from a fixed JSON document (CALLBACK_SECRETS, tests). */
export function staticCallbackSecrets(json: string): CallbackSecrets {
  return fixedCallbackSecrets(parseSecretMap(json));
}

import { z } from 'zod';

/** Active signing secrets per application: `{ "<applicationId>": ["<secret>", …] }`. */
export interface CallbackSecrets {
  secretsFor(applicationId: string): Promise<readonly string[]>;
}

const Secret = z.string().min(16);
/**
 * `{ "<applicationId>": ["<secret>", …] }` (CONTRACT §7). A single string is taken as a
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
      'callback secrets must be {"<applicationId>": ["<secret of 16+ characters>", ...]}',
    );
  }
  return parsed.data;
}

/** Secrets from a fixed document (the local stack's CALLBACK_SECRETS, tests). */
export function staticCallbackSecrets(json: string): CallbackSecrets {
  const map = parseSecretMap(json);
  return {
    secretsFor: async (applicationId) =>
      Object.hasOwn(map, applicationId) ? (map[applicationId] ?? []) : [],
  };
}

import * as z from 'zod';

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

export type SecretMap = Readonly<Record<string, readonly string[]>>;

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

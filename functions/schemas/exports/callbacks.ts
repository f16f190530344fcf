import * as z from 'zod';
import { APPLICATION_ID_PATTERN } from '../../contract/names';
import { isUsableCallbackKey, PUBLIC_KEY_PREFIX } from '../../domain/callbacks/keys';
import type { CallbackSecrets } from '../../domain/callbacks/port';
import { EXECUTION_STATUSES } from '../../domain/exports/model';
import { SequenceNumber } from '../events';
import { lazySchema } from '../lazy';
import { Sha256Hex, Uuid } from '../shared';

/** docs/contract.md §12, §14: `data.result` of a SUCCEEDED export callback. */
export const ExportResultSchema = lazySchema(() =>
  z.strictObject({
    key: z.string().min(1).max(1024),
    rows: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    sha256: Sha256Hex,
  }),
);

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const NonNilUuid = lazySchema(() => Uuid.refine((v) => v !== NIL_UUID, 'must not be the nil UUID'));

/** docs/contract.md §7: the CloudEvent a worker sends about one execution. */
export const CallbackEventSchema = lazySchema(() =>
  z.looseObject({
    specversion: z.literal('1.0'),
    id: NonNilUuid,
    source: z.string().min(1).max(512),
    type: z.string().min(1).max(256),
    sequence: SequenceNumber,
    applicationid: z.string().min(1).max(64).optional(),
    executionid: NonNilUuid,
    taskid: NonNilUuid.optional(),
    time: z.iso.datetime({ offset: true }).optional(),
    data: z.strictObject({
      status: z.enum(EXECUTION_STATUSES).optional(),
      progress: z.number().int().min(0).max(100).optional(),
      /** With SUCCEEDED of an export (§12): the object the worker wrote and its measurements. */
      result: ExportResultSchema.optional(),
    }),
  }),
);

export type CallbackEvent = z.output<typeof CallbackEventSchema>;

/** The path of `POST /v1/callbacks/{applicationId}` (§7). */
export const CallbackPath = lazySchema(() =>
  z.strictObject({
    applicationId: z.string().regex(APPLICATION_ID_PATTERN),
  }),
);

/** What a callback is answered (§7). */
export const CallbackAnswer = lazySchema(() =>
  z.object({
    outcome: z.enum(['applied', 'duplicate', 'stale', 'superseded']),
  }),
);

/** A secret of 16+ bytes (decoded bytes for `whsec_`), or a `whpk_` raw 32-byte public key. */
const Secret = lazySchema(() => z.string().refine(isUsableCallbackKey));
/**
 * `{ "<applicationId>": ["<secret>", …] }` (docs/contract.md §7). A single string is taken as a
 * one-element list: that is the shape CloudFormation generates for a fresh secret, so a new
 * deployment works before an operator rewrites the value as a list for rotation.
 */
const SecretMap = lazySchema(() =>
  z.record(z.string().min(1), z.union([Secret.transform((s) => [s]), z.array(Secret).min(1)])),
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

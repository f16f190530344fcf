import * as z from 'zod';
import {
  DEFAULT_HEDGED_READ,
  HEDGED_READ_SETTINGS,
  type HedgedReadSetting,
} from '../functions/contract/hedged-read';
import { STAGE_PATTERN } from '../functions/contract/names';

/**
 * How a raw CDK context value becomes a setting of lib/config.ts, or is refused with a message
 * that names its key. Raw values are strings with `-c key=value` and any JSON type in cdk.json;
 * `undefined`, `null` and `''` mean "not set". Each setting carries its rule: the text of the
 * error for a value its schema refuses (`<key> <rule>; got <value>`).
 */

/** Thrown for any invalid context value; the message names the context key. */
export class LedgerConfigError extends Error {
  /** The message without the `Invalid CDK context: ` prefix. */
  readonly detail: string;
  /** The context key at fault, when one key is. */
  readonly key?: string;

  constructor(detail: string, key?: string) {
    super(`Invalid CDK context: ${detail}`);
    this.name = 'LedgerConfigError';
    this.detail = detail;
    this.key = key;
  }
}

export const show = (value: unknown): string => JSON.stringify(value);

const rules = new Map<z.ZodType, string>();

/** A context setting: `schema` for a set value, `rule` to explain a refused one. */
export function setting<T extends z.ZodType>(rule: string, schema: T) {
  const unsetToUndefined = (value: unknown) => (value === null || value === '' ? undefined : value);
  const field = z.preprocess(unsetToUndefined, schema.optional());
  rules.set(field, rule);
  return field;
}

/** The rule a setting was declared with (see {@link setting}). */
export const ruleOf = (field: z.ZodType): string | undefined => rules.get(field);

/** A JSON number as is, a string of digits (how `-c` delivers numbers) as a number. */
export const numeric = z.union([
  z.number(),
  z
    .string()
    .regex(/^\s*\d+\s*$/)
    .transform(Number),
]);
const integerFrom = (min: number, max: number) => numeric.pipe(z.number().int().min(min).max(max));
export const integerSetting = (min: number, max: number) =>
  setting(`must be an integer from ${min} to ${max}`, integerFrom(min, max));
export const positiveInteger = () =>
  setting('must be a positive integer', integerFrom(1, Number.MAX_SAFE_INTEGER));
/** `IDEMPOTENCY_HEDGED_READ`'s values, or a boolean: `true` is `adaptive`, `false` is `off`. */
export const hedgedReadSetting = () =>
  setting(
    `must be ${HEDGED_READ_SETTINGS.map((v) => `"${v}"`).join(', ')}, true or false`,
    z.union([
      z.enum(HEDGED_READ_SETTINGS),
      z
        .union([z.boolean(), z.enum(['true', 'false'])])
        .transform(
          (on): HedgedReadSetting => (on === true || on === 'true' ? DEFAULT_HEDGED_READ : 'off'),
        ),
    ]),
  );

export const booleanSetting = () =>
  setting(
    'must be true or false',
    z.union([z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')]),
  );

/**
 * Reserved concurrency: `none` reserves nothing. The upper bound only catches typos (the
 * account's quota decides what fits); zero is refused, it would stop the function.
 */
export const reservedConcurrency = () =>
  setting(
    'must be an integer from 1 to 10000, or "none" to reserve nothing (0 would stop the function)',
    z.union([z.literal('none'), integerFrom(1, 10_000)]),
  );

/** Stage names end up in stack names and the journal events' source (functions/contract). */
export { STAGE_PATTERN };

/**
 * A plain address for the alarm topic's e-mail subscription: one `@`, no spaces or commas, a
 * dotted domain. SNS sends a confirmation message to it; nothing is delivered before it is
 * confirmed.
 */
export const ALARM_EMAIL_PATTERN =
  /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

export function isHttpsUrl(text: string): boolean {
  return URL.canParse(text) && new URL(text).protocol === 'https:';
}

/** Trimmed, de-duplicated, non-empty audiences; every entry a string. */
export function audienceList(items: unknown[], ctx: z.RefinementCtx): string[] {
  const audience: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      ctx.addIssue({
        code: 'custom',
        message: `jwtAudience entries must be strings; got ${show(item)}`,
      });
      return z.NEVER;
    }
    const trimmed = item.trim();
    if (trimmed !== '' && !audience.includes(trimmed)) audience.push(trimmed);
  }
  if (audience.length === 0) {
    ctx.addIssue({
      code: 'custom',
      message: 'jwtAudience must contain at least one non-empty audience',
    });
  }
  return audience;
}

/** A principal as the HTTP function compares it: printable ASCII, no spaces or commas. */
const PRINCIPAL_PATTERN = /^[\x21-\x2b\x2d-\x7e]{1,512}$/;
const IAM_ROLE_ARN = /^arn:[^:]+:iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/;
const ASSUMED_ROLE_SESSION = /^(arn:[^:]+:sts::\d{12}:assumed-role\/[^/]+)\/.+$/;

/**
 * `journalReaders`: principals exactly as the HTTP function sees them (docs/contract.md §2): a
 * JWT `sub`, an IAM user ARN, or for a role `arn:aws:sts::<account>:assumed-role/<name>`. A
 * role's IAM ARN or a session ARN would never match anyone, so they are refused with the form
 * that would.
 */
export function principalList(items: unknown[], ctx: z.RefinementCtx): string[] {
  const principals: string[] = [];
  for (const item of items) {
    const principal = typeof item === 'string' ? item.trim() : item;
    if (principal === '') continue;
    if (typeof principal !== 'string' || !PRINCIPAL_PATTERN.test(principal)) {
      ctx.addIssue({
        code: 'custom',
        message: `journalReaders entries must be principals (1 to 512 printable characters, no spaces or commas); got ${show(item)}`,
      });
      return z.NEVER;
    }
    const role = IAM_ROLE_ARN.exec(principal);
    const session = ASSUMED_ROLE_SESSION.exec(principal);
    if (role || session) {
      const wanted = role ? `arn:aws:sts::${role[1]}:assumed-role/${role[2]}` : session?.[1];
      ctx.addIssue({
        code: 'custom',
        message: `journalReaders: a role calls as ${wanted} (docs/contract.md §2), never as ${principal}`,
      });
      return z.NEVER;
    }
    if (!principals.includes(principal)) principals.push(principal);
  }
  return principals;
}

import * as z from 'zod';

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

/** Stage names end up in stack names (`[A-Za-z][A-Za-z0-9-]*`), so keep them short and plain. */
export const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

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

import * as z from 'zod';
import { DEFAULT_GAP_REFETCH_AFTER_SECONDS } from '../../contract/gaps';
import { STAGE_PATTERN } from '../../contract/names';

/**
 * Each variable's rule, refusing a value in one sentence that names the variable, what it must
 * be and what it got (`EXPORT_FEE must be a whole number from 1 to … (got "1.5")`), like
 * npm start's own settings; zod's generic texts never reach an operator.
 */
const got = (value: unknown) => `(got ${JSON.stringify(value)})`;

export const rule = <T>(
  name: string,
  fallback: T | undefined,
  read: (value: string) => T | undefined,
  must: string,
) =>
  z
    .string()
    .optional()
    .transform((value, ctx): T => {
      if (value === undefined && fallback !== undefined) return fallback;
      const parsed = value === undefined ? undefined : read(value.trim());
      if (parsed !== undefined) return parsed;
      const given = value === undefined ? '(it is not set)' : got(value);
      ctx.addIssue({ code: 'custom', message: `${name} must ${must} ${given}` });
      return z.NEVER;
    });

export const wholeNumber = (name: string, min: number, max: number, fallback: number) =>
  rule(
    name,
    fallback,
    (value) => {
      const n = Number(value);
      return /^\d+$/.test(value) && n >= min && n <= max ? n : undefined;
    },
    `be a whole number from ${min} to ${max}`,
  );
/** A switch: `on` or `off`, on unless set. */
export const onOff = (name: string) =>
  rule(
    name,
    true,
    (value) => (value === 'on' ? true : value === 'off' ? false : undefined),
    'be on or off',
  );
export const positiveInt = (name: string, fallback: number) =>
  wholeNumber(name, 1, Number.MAX_SAFE_INTEGER, fallback);
export const url = (name: string, what: string) =>
  rule<string>(name, undefined, (value) => (URL.canParse(value) ? value : undefined), `be ${what}`);
export const queueUrl = (name: string) => url(name, 'the queue URL');
export const optionalText = z.string().trim().min(1).optional();
export const gapRefetchAfter = () =>
  positiveInt('GAP_REFETCH_AFTER_SECONDS', DEFAULT_GAP_REFETCH_AFTER_SECONDS);
export const stageName = () =>
  rule<string>(
    'STAGE',
    undefined,
    (value) => (STAGE_PATTERN.test(value) ? value : undefined),
    `be the stage name (${STAGE_PATTERN.source})`,
  );
export const topicArn = (name: string, what: string) =>
  rule<string>(
    name,
    undefined,
    (value) => (/^arn:[^:]+:sns:/.test(value) ? value : undefined),
    what,
  );

/**
 * `JOURNAL_READERS` (docs/contract.md §15): a JSON array of principals (what the CDK stack
 * writes) or a comma separated list (handy for `npm start`); empty, nobody but the owners.
 */
export function principalList(text: string): readonly string[] | undefined {
  let items: unknown;
  try {
    items = text.startsWith('[') ? JSON.parse(text) : text.split(',');
  } catch {
    return undefined;
  }
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) return undefined;
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ''))];
}

/** The variables a schema reads: an object's keys, through transforms and intersections. */
export function variablesOf(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodPipe) return variablesOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodIntersection) {
    const { left, right } = schema._zod.def;
    return [...variablesOf(left as z.ZodType), ...variablesOf(right as z.ZodType)];
  }
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

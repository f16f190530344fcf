import { DEFAULT_GAP_REFETCH_AFTER_SECONDS } from '../../contract/gaps';
import { STAGE_PATTERN } from '../../contract/names';

/**
 * Each variable's rule, refusing a value in one sentence that names the variable, what it must
 * be and what it got (`EXPORT_FEE must be a whole number from 1 to … (got "1.5")`), like
 * npm start's own settings. Plain functions, no schema library: every function reads its
 * variables once at cold start, where building schemas would cost more than the reading.
 */
const got = (value: unknown) => `(got ${JSON.stringify(value)})`;

/** One variable's value, or the sentence that refuses it. */
export type Rule<T> = (
  raw: string | undefined,
) => { readonly value: T } | { readonly problem: string };
type Rules = Readonly<Record<string, Rule<unknown>>>;
/** The values a set of rules reads, by variable. */
export type ValuesOf<R extends Rules> = { [K in keyof R]: R[K] extends Rule<infer T> ? T : never };

/** What a configuration refuses after its variables were read one by one (a missing pair). */
export class Refused {
  constructor(readonly problems: readonly string[]) {}
}

type Env = Readonly<Record<string, string | undefined>>;
type Read<T> = { readonly value: T } | { readonly problems: readonly string[] };

/** A set of variables and the configuration their values make. */
export interface EnvSchema<T> {
  readonly variables: readonly string[];
  read(env: Env): Read<T>;
}

/** The variables of `rules`, read in order (every problem kept), then `build` of their values. */
export function envSchema<R extends Rules, T>(
  rules: R,
  build: (values: ValuesOf<R>) => T | Refused,
): EnvSchema<T> {
  const variables = Object.keys(rules);
  return {
    variables,
    read(env) {
      const values: Record<string, unknown> = {};
      const problems: string[] = [];
      for (const name of variables) {
        const result = (rules[name] as Rule<unknown>)(env[name]);
        if ('problem' in result) problems.push(result.problem);
        else values[name] = result.value;
      }
      if (problems.length > 0) return { problems };
      const built = build(values as ValuesOf<R>);
      return built instanceof Refused ? { problems: built.problems } : { value: built };
    },
  };
}

/** Two sets of variables read together (every problem of both), then `build` of both. */
export function bothOf<A, B, T>(
  a: EnvSchema<A>,
  b: EnvSchema<B>,
  build: (a: A, b: B) => T,
): EnvSchema<T> {
  return {
    variables: [...a.variables, ...b.variables],
    read(env) {
      const left = a.read(env);
      const right = b.read(env);
      if ('value' in left && 'value' in right) return { value: build(left.value, right.value) };
      return {
        problems: [
          ...('problems' in left ? left.problems : []),
          ...('problems' in right ? right.problems : []),
        ],
      };
    },
  };
}

/** The value, or every problem in one error (`Invalid configuration: … .`). */
export function valueOrThrow<T>(read: Read<T>): T {
  if ('value' in read) return read.value;
  const sentences = read.problems.map((problem) => problem.replace(/\.$/, ''));
  throw new Error(`Invalid configuration: ${sentences.join('. ')}.`);
}

export const rule =
  <T>(
    name: string,
    fallback: T | undefined,
    read: (value: string) => T | undefined,
    must: string,
  ): Rule<T> =>
  (raw) => {
    if (raw === undefined && fallback !== undefined) return { value: fallback };
    const parsed = raw === undefined ? undefined : read(raw.trim());
    if (parsed !== undefined) return { value: parsed };
    const given = raw === undefined ? '(it is not set)' : got(raw);
    return { problem: `${name} must ${must} ${given}` };
  };

/** A rule that also takes the variable unset (`undefined`). */
export const optional =
  <T>(inner: Rule<T>): Rule<T | undefined> =>
  (raw) =>
    raw === undefined ? { value: undefined } : inner(raw);

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
/** Any text but blank; unset is `undefined`. */
export const optionalText = (name: string) =>
  optional(rule<string>(name, undefined, (value) => value || undefined, 'not be blank'));
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

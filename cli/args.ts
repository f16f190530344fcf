import { type ParseArgsConfig, parseArgs } from 'node:util';
import { messageOf } from '../functions/domain/shared/log';
import { UsageError } from './errors';

type Options = NonNullable<ParseArgsConfig['options']>;

/** What `parseArgs` gives for string and boolean options (no `multiple`). */
export type Values = Record<string, string | boolean | undefined>;

/**
 * `node:util` parseArgs in strict mode, with `--help`/`-h` added and its errors turned into a
 * UsageError that names the command. Positionals are not accepted.
 */
export function parseCommandArgs(
  command: string,
  argv: readonly string[],
  options: Options,
): { values: Values; help: boolean } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    const { help, ...rest } = values as Values;
    return { values: rest, help: help === true };
  } catch (error) {
    const message = messageOf(error);
    throw new UsageError(tidyParseError(message), command);
  }
}

/** parseArgs' messages mention "To specify a positional argument starting with a '-'…"; drop it. */
function tidyParseError(message: string): string {
  return message.split('. To specify')[0]?.replace(/\.$/, '') ?? message;
}

export function stringOption(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requireString(values: Values, name: string, command: string): string {
  const value = stringOption(values, name);
  if (value === undefined || value.trim() === '') {
    throw new UsageError(`--${name} is required`, command);
  }
  return value;
}

/** An integer option within [min, max]; undefined when absent. */
export function intOption(
  values: Values,
  name: string,
  command: string,
  range: { min: number; max: number },
): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || value < range.min || value > range.max) {
    throw new UsageError(
      `--${name} must be a whole number from ${range.min} to ${range.max} (got "${raw}")`,
      command,
    );
  }
  return value;
}

/** A non-negative number of seconds (decimals allowed), as milliseconds. */
export function secondsOption(
  values: Values,
  name: string,
  command: string,
  max = 3_600,
): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > max) {
    throw new UsageError(`--${name} must be seconds from 0 to ${max} (got "${raw}")`, command);
  }
  return Math.round(value * 1000);
}

export function oneOf<T extends string>(
  values: Values,
  name: string,
  command: string,
  allowed: readonly T[],
): T | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${raw}")`, command);
  }
  return raw as T;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidOption(values: Values, name: string, command: string): string | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  if (!UUID.test(raw)) throw new UsageError(`--${name} must be a UUID (got "${raw}")`, command);
  return raw;
}

import type { Log, LogFields } from '../../functions/domain/shared/log';

/** A handler's structured log as one readable line per entry (`INFO message {fields}`). */
export function lineLog(write: (line: string) => void): Log {
  const entry =
    (level: string) =>
    (message: string, fields: LogFields = {}) =>
      write(`${level} ${message} ${JSON.stringify(fields)}`);
  return { info: entry('INFO'), warn: entry('WARN'), error: entry('ERROR') };
}

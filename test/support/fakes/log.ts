import { type Mocked, vi } from 'vitest';
import type { Log, LogFields } from '../../../functions/domain/shared/log';

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields: LogFields;
}

/**
 * `Log` in memory: each line is kept in `lines`, and each method is a `vi.fn` for
 * `toHaveBeenCalledWith`. Tests that read no logs take `silentLog` instead.
 */
export function recordingLog(): Mocked<Log> & { readonly lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (message: string, fields: LogFields = {}) =>
      void lines.push({ level, message, fields });
  return { lines, info: vi.fn(at('info')), warn: vi.fn(at('warn')), error: vi.fn(at('error')) };
}

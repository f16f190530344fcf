import type { CliContext } from '../../../cli/command';
import type { Env } from '../../../cli/config';

export interface RecordingOptions {
  /** @default the local defaults a command reads (SQS_PORT 4566) */
  readonly env?: Env;
  /** What the command's HTTP calls reach. @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * A CLI context for unit tests: what the command prints lands in `out` and `err`, and both, in
 * order, in `lines` (`lines.length = 0` empties it between tests).
 */
export function recordingContext(options: RecordingOptions = {}) {
  const lines: string[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const into = (stream: string[]) => (line: string) => {
    stream.push(line);
    lines.push(line);
  };
  const ctx: CliContext = {
    env: options.env ?? { SQS_PORT: '4566' },
    out: into(out),
    err: into(err),
    fetch: options.fetch ?? globalThis.fetch,
    signal: new AbortController().signal,
  };
  return { ctx, lines, out, err };
}

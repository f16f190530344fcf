import type { CliContext } from '../../../cli/command';

/**
 * A CLI context for unit tests against the local defaults (SQS_PORT 4566): what the command
 * prints, out and err together, lands in `lines`; `lines.length = 0` empties it between tests.
 */
export function recordingContext(): { readonly ctx: CliContext; readonly lines: string[] } {
  const lines: string[] = [];
  const ctx: CliContext = {
    env: { SQS_PORT: '4566' },
    out: (line) => void lines.push(line),
    err: (line) => void lines.push(line),
    fetch: globalThis.fetch,
    signal: new AbortController().signal,
  };
  return { ctx, lines };
}

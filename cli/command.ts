import type { Env } from './config';

/** What a command gets from main: I/O, the environment and Ctrl-C. */
export interface CliContext {
  readonly env: Env;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly fetch: typeof fetch;
  /** Aborted on the first Ctrl-C (SIGINT) or SIGTERM. */
  readonly signal: AbortSignal;
}

/** One command, as its module exports it; its one-line summary is in its cli/registry.ts entry. */
export interface Command {
  readonly name: string;
  /** The full `--help` text. */
  readonly help: string;
  /** Resolves the exit code. Throws CliError / UsageError for readable failures. */
  run(argv: readonly string[], ctx: CliContext): Promise<number>;
}

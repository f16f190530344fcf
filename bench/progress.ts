import type { BenchSettings } from './settings';

/** One progress line of a bench run on stderr; none when the run is quiet (`BENCH_QUIET=1`). */
export function progress(settings: Pick<BenchSettings, 'quiet'>, message: string): void {
  if (!settings.quiet) process.stderr.write(`${message}\n`);
}

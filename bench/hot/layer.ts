/** The contention layer in a process of its own (local/services/contention/main.ts). */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ContentionStats } from '../../local/services/contention/proxy';

export interface LayerProcess {
  readonly endpoint: string;
  readonly writeUnitsPerSecond: number;
  stats(): Promise<ContentionStats>;
  stop(): Promise<void>;
}

const MAIN = join(import.meta.dirname, '../../local/services/contention/main.ts');

/**
 * Commits of the busiest item between two readings of the layer: the item a hot account's
 * credits all write (the account item, a gate shard, a sequence item), whichever took most
 * (docs/contract.md §33). Divided by the credits, it is what bounds one account's rate on AWS.
 */
export function busiestCommits(before: ContentionStats, after: ContentionStats): number {
  let most = 0;
  for (const [item, commits] of Object.entries(after.repeatedCommits)) {
    most = Math.max(most, commits - (before.repeatedCommits[item] ?? 0));
  }
  return most;
}

export async function startLayerProcess(
  upstream: string,
  writeUnitsPerSecond: number,
): Promise<LayerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, upstream, String(writeUnitsPerSecond)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the contention layer exited (${code})`)));
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return {
    endpoint,
    writeUnitsPerSecond,
    stats: async () =>
      (await (await fetch(`${endpoint}/contention/stats`)).json()) as ContentionStats,
    stop: () =>
      new Promise<void>((resolve) => {
        process.removeListener('exit', killOnExit);
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

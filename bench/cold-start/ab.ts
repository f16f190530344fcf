/**
 * A/B of module init between two builds of the bundles (e.g. main and a branch):
 *
 *   node --import tsx bench/cold-start/ab.ts build <dir> [entry…]   bundle like CDK into <dir>
 *   node --import tsx bench/cold-start/ab.ts compare <dirA> <dirB> [processes]
 *
 * `build` bundles every Lambda entry (or the given ones), the Powertools baseline and the probes
 * and writes `<dir>/bundles.json`; `compare` imports each bundle of both builds in fresh
 * processes, A and B alternating, and prints medians (min–max) and each side's median ratio to
 * the baseline of its own build.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { withQuietStderr } from '../../kit/quiet-stderr';
import { formatSpread, pairedRatio, spread } from '../stats';
import {
  type BundleUnderTest,
  bundleLikeCdk,
  initOnce,
  lambdaEntries,
  POWERTOOLS_LAMBDA_ENTRY,
  PROBE_ENTRIES,
} from './run';

function build(dir: string, entries: readonly string[]): void {
  const outdir = mkdtempSync(join(tmpdir(), 'ledger-ab-bundles-'));
  try {
    const all = [...entries, POWERTOOLS_LAMBDA_ENTRY, ...PROBE_ENTRIES];
    const bundles = withQuietStderr(() => bundleLikeCdk(all, outdir));
    const kept = bundles.map((bundle, i) => {
      const target = join(resolve(dir), `bundle-${i}`);
      mkdirSync(target, { recursive: true });
      cpSync(dirname(bundle.file), target, { recursive: true });
      return { ...bundle, file: join(target, basename(bundle.file)) };
    });
    writeFileSync(join(dir, 'bundles.json'), JSON.stringify(kept, null, 2));
    for (const b of kept) console.log(`${b.name}: ${(b.bytes / 1024).toFixed(0)} KB`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const load = (dir: string): BundleUnderTest[] =>
  JSON.parse(readFileSync(join(dir, 'bundles.json'), 'utf8')) as BundleUnderTest[];

async function compare(dirA: string, dirB: string, processes: number): Promise<void> {
  const a = load(dirA);
  const b = load(dirB).filter((bundle) => a.some((other) => other.name === bundle.name));
  const pairs = b.map((bundle) => [a.find((o) => o.name === bundle.name), bundle] as const);
  const times = pairs.map(() => [[] as number[], [] as number[]] as const);
  for (let i = 0; i < processes; i++) {
    for (const [index, [before, after]] of pairs.entries()) {
      const [first, second] = i % 2 === 0 ? [0, 1] : [1, 0];
      const sides = [before, after];
      for (const side of [first, second]) {
        times[index]?.[side]?.push(await initOnce(sides[side] as BundleUnderTest));
      }
    }
  }
  const baseline = times[pairs.findIndex(([, after]) => after.name === 'powertools')];
  for (const [index, [before, after]] of pairs.entries()) {
    const [ta, tb] = times[index] ?? [[], []];
    const kb = (x?: BundleUnderTest) => ((x?.bytes ?? 0) / 1024).toFixed(0);
    const ratio = (t: number[], side: 0 | 1) =>
      baseline ? formatSpread(pairedRatio(t, baseline[side])) : '–';
    console.log(
      `${after.name}\tA ${formatSpread(spread(ta), 1)} ms ${kb(before)} KB ×${ratio(ta, 0)}` +
        `\tB ${formatSpread(spread(tb), 1)} ms ${kb(after)} KB ×${ratio(tb, 1)}`,
    );
  }
}

const [command, ...args] = process.argv.slice(2);
if (command === 'build' && args[0]) {
  build(args[0], args.length > 1 ? args.slice(1).map((e) => resolve(e)) : lambdaEntries());
} else if (command === 'compare' && args[0] && args[1]) {
  await compare(args[0], args[1], Number(args[2] ?? 15));
} else {
  console.error('usage: ab.ts build <dir> [entry…] | compare <dirA> <dirB> [processes]');
  process.exitCode = 2;
}

/**
 * Where a function's module init goes: compiling and linking the bundle, then evaluating each
 * package's top-level code and the handler's own composition.
 *
 *   node --import tsx bench/cold-start/where.ts [entry|powertools] [processes]
 *
 * Bundles `entry` (default: the HTTP function; `powertools` for the baseline) like CDK does,
 * identifiers and syntax minified but not whitespace, so that esbuild keeps the `// path`
 * comment over each module's statements (the bundle is one flat scope); puts a timestamp before
 * each, imports it in fresh processes with the deployed environment, and prints medians: time
 * to the first module's code (reading, compiling and linking the bundle, Node's own ESM loading
 * included: about 7 ms for an empty module) and evaluation per package. The bundle is about
 * half again the deployed one's size (whitespace, comments), so its compile takes a little
 * longer; the split, not the sum, is the point. A module esbuild wraps to run on first use
 * (`__commonJS`, `__esm`) is timed where its caller runs it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import {
  BUNDLE_MAIN_FIELDS,
  BUNDLE_TARGET,
  ESM_REQUIRE_BANNER,
  externalModulesOf,
  handlerEntry,
} from '../../lib/constructs/shared/ledger-function';
import { isScript } from '../script';
import { median } from '../stats';
import { inFreshProcess, POWERTOOLS_LAMBDA_ENTRY } from './run';

const MARKS = '__initMarks';
const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** `node_modules/@aws-sdk/core/dist/…` → `@aws-sdk/core`; `functions/api/app.ts` → `functions/api`. */
export function moduleGroup(path: string): string {
  const pkg = [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1);
  return pkg ? (pkg[1] as string) : path.split('/').slice(0, 2).join('/');
}

/** The bundle's text with a mark before each module's code and one at its end. */
export function withMarks(bundle: string): string {
  const lines = bundle.split('\n').map((line) => {
    const module = line.match(/^\/\/ (\S+)$/);
    return module
      ? `${MARKS}.push([${JSON.stringify(moduleGroup(module[1] as string))}, performance.now()]);\n${line}`
      : line;
  });
  return `${lines.join('\n')}\n${MARKS}.push(['end', performance.now()]);\n`;
}

/** Run in a fresh process: the import timed, then the marks summed per group. */
const PROBE = `globalThis.${MARKS} = [];
const start = performance.now();
await import(process.argv[1]);
const marks = globalThis.${MARKS};
const groups = {};
for (let i = 0; i + 1 < marks.length; i++) {
  groups[marks[i][0]] = (groups[marks[i][0]] ?? 0) + marks[i + 1][1] - marks[i][1];
}
process.stdout.write(JSON.stringify({ total: performance.now() - start, beforeFirst: marks[0][1] - start, groups }));`;

interface Split {
  readonly total: number;
  readonly beforeFirst: number;
  readonly groups: Record<string, number>;
}

async function main(entryArg: string | undefined, processes: number): Promise<void> {
  const entry =
    entryArg === 'powertools' ? POWERTOOLS_LAMBDA_ENTRY : resolve(entryArg ?? handlerEntry('http'));
  const dir = mkdtempSync(join(tmpdir(), 'ledger-init-split-'));
  try {
    const file = join(dir, 'index.mjs');
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      minifyIdentifiers: true,
      minifySyntax: true,
      // The comments name modules relative to it: our folders, whatever the working directory.
      absWorkingDir: REPO_ROOT,
      target: BUNDLE_TARGET,
      mainFields: BUNDLE_MAIN_FIELDS,
      external: externalModulesOf(entry),
      banner: { js: ESM_REQUIRE_BANNER },
      outfile: file,
      logLevel: 'error',
    });
    writeFileSync(file, withMarks(readFileSync(file, 'utf8')));
    const splits: Split[] = [];
    for (let i = 0; i < processes; i++) {
      splits.push(JSON.parse(await inFreshProcess(PROBE, file)) as Split);
    }
    const med = (pick: (s: Split) => number) => median(splits.map(pick)).toFixed(1);
    const groups = [...new Set(splits.flatMap((s) => Object.keys(s.groups)))];
    const evaluated = groups
      .map((g) => [g, median(splits.map((s) => s.groups[g] ?? 0))] as const)
      .sort((a, b) => b[1] - a[1]);
    const evaluation = median(splits.map((s) => s.total - s.beforeFirst));
    console.log(`${relative(process.cwd(), entry)}: ${processes} fresh processes, medians`);
    console.log(`  import, in all              ${med((s) => s.total)} ms`);
    console.log(`  read, compile and link      ${med((s) => s.beforeFirst)} ms`);
    console.log(`  evaluate                    ${evaluation.toFixed(1)} ms, of which:`);
    for (const [group, ms] of evaluated.slice(0, 12)) {
      console.log(`    ${ms.toFixed(2).padStart(6)} ms  ${group}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run as a script only: the tests import the functions above.
if (isScript(import.meta.url)) {
  await main(process.argv[2], Number(process.argv[3] ?? 10));
}

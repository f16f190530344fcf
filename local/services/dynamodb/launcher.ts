import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The launcher's source: run as is by Java's source launcher, or compiled once by `javac`. */
export const LAUNCHER_SOURCE = fileURLToPath(
  new URL('./LoopbackDynamoDbLocal.java', import.meta.url),
);
export const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';

const run = promisify(execFile);
const compiled = new Map<string, Promise<string | undefined>>();

/**
 * A directory holding LoopbackDynamoDbLocal.class, compiled once per version of its source and
 * kept under the system's temporary directory, so that each JVM start loads a class instead
 * of compiling the source again: the source launcher costs about 0.6 CPU-s more per start
 * (docs/architecture.md "Testing notes"). Undefined where `javac` is missing or fails; the
 * caller then uses the source launcher. Concurrent callers (other processes included) each
 * compile into a directory of their own and the first rename wins.
 */
export function compiledLauncher(
  javac = 'javac',
  cacheDir = tmpdir(),
): Promise<string | undefined> {
  const key = `${javac}\0${cacheDir}`;
  let pending = compiled.get(key);
  if (!pending) {
    pending = compile(javac, cacheDir);
    compiled.set(key, pending);
  }
  return pending;
}

async function compile(javac: string, cacheDir: string): Promise<string | undefined> {
  const version = createHash('sha256')
    .update(readFileSync(LAUNCHER_SOURCE))
    .digest('hex')
    .slice(0, 16);
  const target = join(cacheDir, `idempotent-ledger-${userInfo().uid}-launcher-${version}`);
  if (existsSync(join(target, `${LAUNCHER_CLASS}.class`))) return target;
  const scratch = mkdtempSync(`${target}-`);
  try {
    await run(javac, ['--release', '17', '-d', scratch, LAUNCHER_SOURCE]);
    try {
      renameSync(scratch, target);
    } catch {
      // Another process renamed its copy first: the same bytes from the same source.
    }
    return existsSync(join(target, `${LAUNCHER_CLASS}.class`)) ? target : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

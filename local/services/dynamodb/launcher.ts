import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The launcher's source: run as is by Java's source launcher, or compiled once by `javac`. */
export const LAUNCHER_SOURCE = fileURLToPath(
  new URL('./LoopbackDynamoDbLocal.java', import.meta.url),
);
export const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';

const run = promisify(execFile);
const JAVAC_ARGUMENTS = ['--release', '17'] as const;
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
    .update(JAVAC_ARGUMENTS.join(' '))
    .digest('hex')
    .slice(0, 16);
  const uid = process.getuid?.() ?? 'user';
  const target = join(cacheDir, `idempotent-ledger-${uid}-launcher-${version}`);
  if (ours(target)) return target;
  let scratch: string | undefined;
  try {
    scratch = mkdtempSync(`${target}-`);
    await run(javac, [...JAVAC_ARGUMENTS, '-d', scratch, LAUNCHER_SOURCE]);
    // Whatever the umask: `ours` accepts no class another user may write.
    chmodSync(join(scratch, `${LAUNCHER_CLASS}.class`), 0o644);
    try {
      renameSync(scratch, target);
    } catch {
      // Another process renamed its copy first: the same bytes from the same source.
    }
    return ours(target) ? target : undefined;
  } catch {
    return undefined;
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The directory and its class are real files (no symlinks) this user owns and no one else may
 * write: a shared temporary directory must not hand us another user's class to run.
 */
function ours(dir: string): boolean {
  try {
    return [dir, join(dir, `${LAUNCHER_CLASS}.class`)].every((path) => {
      const stat = lstatSync(path);
      const owner = process.getuid === undefined || stat.uid === process.getuid();
      return owner && !stat.isSymbolicLink() && (stat.mode & 0o022) === 0;
    });
  } catch {
    return false;
  }
}

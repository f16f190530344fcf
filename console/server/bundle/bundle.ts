import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_PATH } from '../../shared/api';

/**
 * The console's pages (console/web/, Preact + uPlot) built by Vite into a directory the
 * console serves offline. Built when a console starts, into `.console-build/<hash>/`, where the
 * hash covers the sources and the versions of Vite, Preact and uPlot: a second start with the
 * same sources reuses the build, and nothing built is committed (docs/console.md).
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const CONSOLE_DIR = resolve(HERE, '..', '..');
const REPO = resolve(CONSOLE_DIR, '..');
const WEB_DIR = join(CONSOLE_DIR, 'web');
const SHARED_DIR = join(CONSOLE_DIR, 'shared');
export const BUILD_ROOT = join(REPO, '.console-build');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface Bundle {
  /** Where the built files are. */
  readonly dir: string;
  /** Serves one file of the build by its path under /console; index.html for `/` and ``. */
  serve(path: string, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found.sort();
}

/** Hash of every source file of the pages and the versions of what builds them. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  for (const pkg of ['vite', 'preact', 'uplot']) {
    const { version } = require(`${pkg}/package.json`) as { version: string };
    hash.update(`${pkg}@${version}\n`);
  }
  for (const file of [...(await filesUnder(WEB_DIR)), ...(await filesUnder(SHARED_DIR))]) {
    hash
      .update(relative(CONSOLE_DIR, file))
      .update('\0')
      .update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Builds the pages unless a build of the same sources exists; resolves its directory. */
export async function buildConsole(log: (line: string) => void = () => {}): Promise<string> {
  const dir = join(BUILD_ROOT, await sourceHash());
  if (existsSync(join(dir, 'index.html'))) return dir;
  log('building the console pages (Vite)...');
  const started = Date.now();
  // Built beside, then renamed: two consoles starting at once never serve half a build.
  const scratch = `${dir}.${process.pid}.${Date.now()}`;
  await mkdir(BUILD_ROOT, { recursive: true });
  const { build } = await import('vite');
  await build({
    root: WEB_DIR,
    base: `${CONSOLE_PATH}/`,
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: { outDir: scratch, emptyOutDir: true, sourcemap: false, reportCompressedSize: false },
  });
  try {
    await rename(scratch, dir);
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    if (!existsSync(join(dir, 'index.html'))) throw error; // else: another start won the race
  }
  log(`console pages built in ${Date.now() - started} ms`);
  await pruneOldBuilds(dir);
  return dir;
}

/** Builds of other sources older than a day (a console started before then may still serve one). */
async function pruneOldBuilds(keep: string): Promise<void> {
  const dayAgo = Date.now() - 86_400_000;
  for (const entry of await readdir(BUILD_ROOT, { withFileTypes: true })) {
    const path = join(BUILD_ROOT, entry.name);
    if (path === keep || !entry.isDirectory()) continue;
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
    if (mtimeMs < dayAgo) await rm(path, { recursive: true, force: true });
  }
}

/** The built files, served from a list taken once: no path from a request reaches the disk. */
export async function loadBundle(dir: string): Promise<Bundle> {
  const files = new Map<string, string>();
  for (const file of await filesUnder(dir)) files.set(`/${relative(dir, file)}`, file);
  return {
    dir,
    async serve(path, req, res) {
      const name = path === '' || path === '/' ? '/index.html' : path;
      const file = files.get(name);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
        res.end('GET only');
        return;
      }
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('not found');
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': String((await stat(file)).size),
        'cache-control': name === '/index.html' ? 'no-cache' : 'max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        'content-security-policy':
          "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  };
}

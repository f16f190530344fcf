import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console's layering (docs/architecture.md, docs/console.md): the pages import only the
 * shared API shapes and their UI libraries; the shared shapes import nothing; the server uses
 * the project's readers and commands but never the local stack.
 */
const CONSOLE = resolve(__dirname, '../../../console');

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = sourcesUnder(CONSOLE).map((path) => ({
  name: relative(CONSOLE, path),
  imports: [...readFileSync(path, 'utf8').matchAll(/from '([^']+)'|import '([^']+)'/g)].map(
    (m) => m[1] ?? m[2] ?? '',
  ),
}));
const part = (name: string) => files.filter((f) => f.name.startsWith(`${name}/`));

describe('console layers', () => {
  it.each(part('web'))('$name imports only ../shared, preact and uplot', ({ imports }) => {
    expect(
      imports.filter(
        (i) => !/^(\.\/|\.\.\/(?!\.\.)|\.\.\/\.\.\/shared\/)/.test(i) && !/^(preact|uplot)/.test(i),
      ),
    ).toEqual([]);
    expect(imports.filter((i) => /server|functions|cli|local/.test(i))).toEqual([]);
  });

  it.each(part('shared'))('$name imports nothing', ({ imports }) => {
    expect(imports).toEqual([]);
  });

  it.each(part('server'))('$name never imports the local stack', ({ imports }) => {
    expect(imports.filter((i) => /(^|\/)local\//.test(i))).toEqual([]);
  });

  it('has no folder of more than 15 files', () => {
    const counts = new Map<string, number>();
    for (const f of files) {
      const folder = f.name.split('/').slice(0, -1).join('/');
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
    }
    expect([...counts].filter(([, n]) => n > 15)).toEqual([]);
  });
});

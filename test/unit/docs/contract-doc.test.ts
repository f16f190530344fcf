import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../functions/contract/openapi';

/** docs/contract.md is what code and tests cite; these checks keep it from drifting. */
const root = join(import.meta.dirname, '..', '..', '..');
const contract = readFileSync(join(root, 'docs', 'contract.md'), 'utf8');
const sections = new Set([...contract.matchAll(/^## (§\d+) /gm)].map((m) => m[1]));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/contract.md', () => {
  it('has its sections in order, §1 upwards', () => {
    const numbers = [...sections].map((s) => Number(s?.slice(1)));
    expect(numbers.length).toBeGreaterThanOrEqual(9);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('has every section the code and tests cite', () => {
    const cited = ['functions', 'lib', 'local', 'cli', 'test'].flatMap((dir) =>
      sourceFiles(join(root, dir)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/(?:CONTRACT|contract(?:\.md)?) (§\d+)/g)].map(
          (m) => ({ file: file.slice(root.length + 1), section: m[1] as string }),
        ),
      ),
    );
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((c) => !sections.has(c.section))).toEqual([]);
  });

  it('names every route of the OpenAPI document', () => {
    const doc = buildOpenApiDocument({ idempotencyRetentionSeconds: 1, inboxRetentionSeconds: 1 });
    const missing = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`)
        .filter((route) => !contract.includes(route)),
    );
    expect(missing).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const FUNCTIONS = resolve(__dirname, '../../../functions');

/** Every source file under a folder, however deep (a new feature folder is walked too). */
function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const layerOf = (file: string): string => relative(FUNCTIONS, file).split(sep)[0] ?? '';

/**
 * The layers and the arrows between them (docs/architecture.md): each may import itself and
 * the layers listed, nothing above it. `handlers` composes everything and is not listed.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  contract: [],
  domain: ['contract'],
  schemas: ['contract', 'domain'],
  dynamodb: ['contract', 'domain', 'schemas'],
  aws: ['contract', 'domain', 'schemas'],
  api: ['contract', 'domain', 'schemas'],
};

const files = sourcesUnder(FUNCTIONS).map((path) => ({
  name: relative(FUNCTIONS, path),
  layer: layerOf(path),
  imports: [...readFileSync(path, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1] ?? ''),
  text: readFileSync(path, 'utf8'),
  path,
}));
const domain = files.filter((f) => f.layer === 'domain');

describe('the domain layer stays pure', () => {
  it('is walked recursively, feature folders included', () => {
    expect(domain.length).toBeGreaterThan(30);
    expect(new Set(domain.map((f) => dirname(f.name)))).toContain(join('domain', 'holds'));
  });

  it.each(domain)('$name imports no AWS SDK, Powertools, zod or HTTP code', ({ imports }) => {
    expect(
      imports.filter((i) => /@aws-sdk|@aws-lambda-powertools|^zod|^node:https?$/.test(i)),
    ).toEqual([]);
  });

  it.each(domain)('$name names no HTTP status', ({ text }) => {
    expect(text).not.toMatch(/\b(status(Code)?|Status)\s*[:=]\s*[1-5]\d\d\b/);
    expect(text).not.toMatch(/\b[1-5]\d\d (not_found|unauthenticated|internal|signature_expired)/);
  });
});

describe('imports only point down the layers', () => {
  const layered = files.filter((f) => f.layer in MAY_IMPORT);
  it.each(layered)('$name', ({ layer, imports, path }) => {
    const allowed = new Set([layer, ...(MAY_IMPORT[layer] ?? [])]);
    const upward = imports
      .filter((i) => i.startsWith('.'))
      .map((i) => layerOf(resolve(dirname(path), i)))
      .filter((target) => !allowed.has(target));
    expect(upward).toEqual([]);
  });

  it('fails for an import that points up (the check itself works)', () => {
    const file = join(FUNCTIONS, 'domain', 'holds', 'service.ts');
    const target = layerOf(resolve(dirname(file), '../../dynamodb/holds/store'));
    expect(MAY_IMPORT.domain).not.toContain(target);
  });
});

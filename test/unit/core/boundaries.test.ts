import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = join(__dirname, '../../../functions/core');
const sources = readdirSync(CORE)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(CORE, name), 'utf8') }));

describe('functions/core stays transport-free', () => {
  it.each(sources)('$name imports no AWS SDK, zod or HTTP layer', ({ text }) => {
    const imports = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.filter((i) => /@aws-sdk|^zod$|\/http(\/|$)/.test(i ?? ''))).toEqual([]);
  });

  it.each(sources)('$name names no HTTP status', ({ text }) => {
    expect(text).not.toMatch(/\b(status(Code)?|Status)\s*[:=]\s*[1-5]\d\d\b/);
    expect(text).not.toMatch(/\b[1-5]\d\d (not_found|unauthenticated|internal|signature_expired)/);
  });
});

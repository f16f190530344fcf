import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES_FILE, generateClientTypes } from '../../../client/generate';

describe('client/openapi.generated.ts', () => {
  it('matches the OpenAPI document (run `npm run generate:client` after changing it)', async () => {
    const committed = await readFile(GENERATED_TYPES_FILE, 'utf8');

    const fresh = await generateClientTypes();

    // A plain equality, so a failure names the first differing line instead of a 1,000-line diff.
    const first = fresh.split('\n').findIndex((line, i) => line !== committed.split('\n')[i]);
    expect(
      first < 0 && fresh === committed ? 'in sync' : `stale from line ${first + 1}`,
      'client/openapi.generated.ts is stale: run `npm run generate:client`',
    ).toBe('in sync');
    // Generating from the whole document takes 2–7 s on a loaded 2-core machine.
  }, 30_000);
});

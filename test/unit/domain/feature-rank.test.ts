import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md "Feature rank": within a layer, feature folders import one way — shared
 * models below movements, movements below the transports and features that use it. Counts the
 * pairs of feature folders that import each other both ways.
 */
const FUNCTIONS = resolve(__dirname, '../../../functions');

/**
 * The two-way pairs each layer may still have. Issue 43 asks for at most 2; what is left above
 * that is listed in docs/architecture.md "Feature rank" and may only shrink.
 */
const MAX_TWO_WAY: Readonly<Record<string, number>> = { domain: 13, dynamodb: 3 };

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every pair `a ↔ b` (a < b) of feature folders of the layer that import each other. */
function twoWayPairs(layer: string): string[] {
  const root = join(FUNCTIONS, layer);
  const featureOf = (file: string) => relative(root, file).split(sep)[0] ?? '';
  const edges = new Set<string>();
  for (const file of sourcesUnder(root)) {
    const from = featureOf(file);
    for (const [, target] of readFileSync(file, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)) {
      const path = resolve(dirname(file), target ?? '');
      if (!path.startsWith(root + sep)) continue;
      const to = featureOf(path);
      if (to !== from && !to.endsWith('.ts')) edges.add(`${from} ${to}`);
    }
  }
  return [...edges]
    .map((edge) => edge.split(' ') as [string, string])
    .filter(([from, to]) => from < to && edges.has(`${to} ${from}`))
    .map(([from, to]) => `${from} ↔ ${to}`)
    .sort();
}

describe('feature folders import one way', () => {
  it.each(Object.entries(MAX_TWO_WAY))(
    '%s has at most its allowance of two-way pairs',
    (layer, max) => {
      const pairs = twoWayPairs(layer);
      expect(pairs.length, pairs.join(', ')).toBeLessThanOrEqual(max);
    },
  );

  it('keeps the dynamodb pairs issue 43 undid one way', () => {
    const pairs = twoWayPairs('dynamodb');
    for (const gone of [
      'events ↔ movements',
      'intake ↔ movements',
      'accounts ↔ events',
      'accounts ↔ idempotency',
      'journal ↔ reconciliation',
    ]) {
      expect(pairs).not.toContain(gone);
    }
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md "Feature rank": within a layer, feature folders import one way — shared
 * models below movements, movements below the transports and features that use it. Computes the
 * pairs of feature folders that import each other both ways and fails on any pair that is not
 * allowed below, with its reason (issue 43: at most 2 per layer).
 */
const FUNCTIONS = resolve(__dirname, '../../../functions');

/** The two-way pairs each layer may keep, `a ↔ b` with a < b, and why. May only shrink. */
const ALLOWED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  domain: {
    'accounts ↔ movements':
      'accounts/ holds the shared models movements writes and LedgerService (credits, debits), a MovingService',
    'exports ↔ movements':
      "the export fee's claim carries what it pays for (task, execution, job: exports/port PaidExport)",
  },
  dynamodb: {
    'accounts ↔ intake':
      "an account's creation, settings and closing write its gates; intake's items decode entries",
    'holds ↔ movements': "the capture is a movement whose items are a hold's",
  },
};

const MAX_PER_LAYER = 2;

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
  it.each(Object.entries(ALLOWED))(
    '%s has no two-way pair but the allowed ones',
    (layer, allowed) => {
      const unexpected = twoWayPairs(layer).filter((pair) => !(pair in allowed));
      expect(unexpected, 'a new two-way pair: move the fact to the lower feature').toEqual([]);
    },
  );

  it.each(Object.entries(ALLOWED))('%s allows only pairs that still exist', (layer, allowed) => {
    const pairs = twoWayPairs(layer);
    const gone = Object.keys(allowed).filter((pair) => !pairs.includes(pair));
    expect(gone, 'a pair became one way: drop it from ALLOWED').toEqual([]);
  });

  it.each(Object.keys(ALLOWED))('%s is within the allowance of issue 43', (layer) => {
    expect(twoWayPairs(layer).length).toBeLessThanOrEqual(MAX_PER_LAYER);
  });

  it('finds a two-way pair where one exists', () => {
    // The counter itself: the domain's accounts and movements do import each other.
    expect(twoWayPairs('domain')).toContain('accounts ↔ movements');
  });
});

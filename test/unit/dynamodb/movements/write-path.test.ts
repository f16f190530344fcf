import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md "One write path": one composer is the only user of the account-change
 * builder, one function reads a cancellation's reasons, and every store that writes money reads
 * its cancellation decoded, never by role.
 */
const root = join(__dirname, '../../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

const files = sources(join(root, 'functions')).map((path) => ({
  path,
  text: readFileSync(join(root, path), 'utf8'),
}));
const importing = (module: RegExp) =>
  files.filter(({ text }) =>
    [...text.matchAll(/from '([^']+)'/g)].some(([, from]) => module.test(from ?? '')),
  );
const writePath = (path: string) => path.startsWith('functions/dynamodb/movements/');

describe('the one write path', () => {
  it('has one importer of the account-change builder: the composer', () => {
    const importers = importing(/(^|\/)account-change$/).map(({ path }) => path);
    expect(importers).toEqual(['functions/dynamodb/movements/compose.ts']);
  });

  it('reads cancellation reasons in one place', () => {
    const readers = files.filter(({ text }) => text.includes('CancellationReasons'));
    expect(readers.map(({ path }) => path)).toEqual(['functions/dynamodb/table/transact.ts']);
  });

  it('hands every money store its cancellation decoded, never read by role', () => {
    const money = importing(/movements\/(compose|decode|plan)$/).filter(
      ({ path }) => !writePath(path),
    );
    expect(money.length).toBeGreaterThanOrEqual(5);
    const byRole = /failed\.(get|has)\(\s*['`](account|gate|payment|entry|pointer|pending)/;
    const readers = money.filter(
      ({ text }) => byRole.test(text) || /transactWithRetry\(/.test(text),
    );
    expect(readers.map(({ path }) => path)).toEqual(
      // A waiver moves no money: it is an inbox claim and a sequence only.
      ['functions/dynamodb/events/store.ts'],
    );
    const gates = files.filter(({ text }) => text.includes('gateAsAccount('));
    expect(gates.map(({ path }) => path).sort()).toEqual([
      'functions/dynamodb/movements/decode.ts',
      'functions/dynamodb/movements/intake-items.ts',
    ]);
  });
});

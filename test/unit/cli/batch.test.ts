import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchesOf, batchKey, operationsOf } from '../../../cli/commands/batch';
import { runCli } from '../../../cli/run';
import { recordingContext } from '../../support/cli/context';

const op = (i: number) => ({
  key: `k${i}`,
  op: 'credit',
  accountId: 'a',
  body: { type: 'credit', amount: i, currency: 'EUR' },
});

describe('npm run cli -- batch', () => {
  it('reads a JSON array, { operations } or JSON Lines, and cuts it into batches of 100', () => {
    const ops = Array.from({ length: 250 }, (_, i) => op(i));
    expect(operationsOf(JSON.stringify(ops), 'f')).toEqual(ops);
    expect(operationsOf(JSON.stringify({ operations: ops }), 'f')).toEqual(ops);
    expect(operationsOf(ops.map((o) => JSON.stringify(o)).join('\n'), 'f')).toEqual(ops);
    expect(batchesOf(operationsOf(JSON.stringify(ops), 'f')).map((b) => b.length)).toEqual([
      100, 100, 50,
    ]);
  });

  it('keys each batch by what it sends, so a second run replays', () => {
    const ops = operationsOf(JSON.stringify([op(1), op(2)]), 'f');
    expect(batchKey('p', 'independent', ops)).toBe(batchKey('p', 'independent', [...ops]));
    expect(batchKey('p', 'independent', ops)).not.toBe(batchKey('p', 'atomic', ops));
    expect(batchKey('p', 'independent', ops)).not.toBe(batchKey('p', 'independent', ops.slice(1)));
  });

  it('prints each result as a JSON line, progress on stderr, and exits 1 when one failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-batch-'));
    const file = join(dir, 'ops.json');
    writeFileSync(file, JSON.stringify([op(1), op(2)]));
    const sent: { key: string | null; body: unknown }[] = [];
    const fetch = (async (request: Request) => {
      sent.push({ key: request.headers.get('idempotency-key'), body: await request.json() });
      const results = [
        { key: 'k1', status: 201, body: { id: 'x' } },
        { key: 'k2', status: 409, body: { code: 'insufficient_funds' } },
      ];
      return new Response(JSON.stringify({ mode: 'independent', results }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof globalThis.fetch;
    const { ctx, out, err } = recordingContext({ env: {}, fetch });
    expect(await runCli(['batch', '--file', file, '--principal', 'ops'], ctx)).toBe(1);
    expect(out.map((line) => JSON.parse(line).status)).toEqual([201, 409]);
    expect(err.join('\n')).toContain('batch 1/1 (2 operations): 1 × 201, 1 × 409');
    expect(sent[0]?.body).toEqual({ mode: 'independent', operations: [op(1), op(2)] });
    expect(sent[0]?.key).toMatch(/^cli-batch-[0-9a-f]{32}$/);
  });
});

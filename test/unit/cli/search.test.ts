import { describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/run';
import { recordingContext } from '../../support/cli/context';

/** `npm run cli -- search` (docs/contract.md §34). */
function context(answer: (request: Request) => Response) {
  const asked: Request[] = [];
  const fetch = (async (request: Request) => {
    asked.push(request);
    return answer(request);
  }) as typeof globalThis.fetch;
  return { ...recordingContext({ env: {}, fetch }), asked };
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
const entry = (id: string) => ({
  id,
  accountId: '6f1c0e0a-0000-4000-8000-000000000001',
  type: 'credit',
  amount: 5,
  currency: 'EUR',
  metadata: { order: '42' },
  origin: 'http',
  createdAt: '2026-11-01T00:00:00.000Z',
  effectiveAt: '2026-11-01T00:00:00.000Z',
  status: 'posted',
});

describe('npm run cli -- search', () => {
  it('sends every --metadata pair and --reference, follows every page, prints what it found', async () => {
    const c = context((request) =>
      new URL(request.url).searchParams.has('cursor')
        ? json({ items: [entry('e2')], nextCursor: null, indexedThrough: null })
        : json({ items: [entry('e1')], nextCursor: 'c1', indexedThrough: null }),
    );
    const argv = ['search', '--metadata', 'order=42', '--metadata=shop=a=b', '--reference', 'r'];
    expect(await runCli(argv, c.ctx)).toBe(0);
    const first = new URL(c.asked[0]?.url ?? '');
    expect(first.pathname).toBe('/v1/transactions');
    expect(Object.fromEntries(first.searchParams)).toEqual({
      'metadata.order': '42',
      'metadata.shop': 'a=b',
      reference: 'r',
      limit: '100',
    });
    expect(new URL(c.asked[1]?.url ?? '').searchParams.get('cursor')).toBe('c1');
    expect(c.out.join('\n')).toContain('e1');
    expect(c.out.at(-1)).toBe('2 entry(ies) found');
  });

  it('refuses a search without a filter or with a bad pair (exit 2, nothing sent)', async () => {
    for (const argv of [['search'], ['search', '--metadata', 'order']]) {
      const c = context(() => json({}));
      expect(await runCli(argv, c.ctx)).toBe(2);
      expect(c.asked).toEqual([]);
    }
  });

  it('searches accounts with --accounts and a name prefix', async () => {
    const c = context(() => json({ items: [], nextCursor: null, indexedThrough: null }));
    expect(await runCli(['search', '--accounts', '--name', 'Shop'], c.ctx)).toBe(0);
    const url = new URL(c.asked[0]?.url ?? '');
    expect(url.pathname).toBe('/v1/accounts');
    expect(url.searchParams.get('name')).toBe('Shop');
  });
});

import { describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/run';
import { recordingContext } from '../../support/cli/context';

const ACCOUNT = '6f1c0e0a-0000-4000-8000-000000000001';
const item = (id: string, type: string, amount: number, effectiveAt: string) => ({
  id,
  accountId: ACCOUNT,
  type,
  amount,
  currency: 'EUR',
  createdAt: effectiveAt,
  effectiveAt,
  origin: 'api',
});
/** Two pages of one window: the totals and closing cover the window on both (§26). */
const PAGES = [
  {
    items: [item('e1', 'credit', 500, '2026-11-02T00:00:00.000Z')],
    nextCursor: 'page-2',
  },
  {
    items: [
      item('e2', 'debit', 120, '2026-11-03T00:00:00.000Z'),
      item('e3', 'transfer_in', 30, '2026-11-04T00:00:00.000Z'),
    ],
    nextCursor: null,
  },
];

describe('npm run cli -- statement', () => {
  it('follows nextCursor through every page, prints each entry once, totals once', async () => {
    const asked: URL[] = [];
    const fetch = (async (request: Request) => {
      const url = new URL(request.url);
      asked.push(url);
      const page = url.searchParams.get('cursor') === 'page-2' ? PAGES[1] : PAGES[0];
      const body = {
        accountId: ACCOUNT,
        currency: 'EUR',
        from: '2026-11-01T00:00:00.000Z',
        to: '2026-12-01T00:00:00.000Z',
        openingBalance: 100,
        closingBalance: 510,
        totalCredits: 530,
        totalDebits: 120,
        ...page,
      };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof globalThis.fetch;
    const { ctx, out } = recordingContext({ env: {}, fetch });
    const argv = ['statement', '--account', ACCOUNT, '--from', '2026-11-01', '--to', '2026-12-01'];
    expect(await runCli([...argv, '--page-size', '1'], ctx)).toBe(0);
    expect(asked.map((url) => url.searchParams.get('cursor'))).toEqual([null, 'page-2']);
    expect(asked.map((url) => url.searchParams.get('limit'))).toEqual(['1', '1']);
    expect(asked[0]?.searchParams.get('from')).toBe('2026-11-01T00:00:00Z');
    expect(out.filter((line) => line.includes('opening balance'))).toEqual([
      '  opening balance 100',
    ]);
    expect(out.filter((line) => /\be[123]$/.test(line)).map((line) => line.trim())).toEqual([
      expect.stringMatching(/^2026-11-02T00:00:00.000Z +credit +\+500 +e1$/),
      expect.stringMatching(/^2026-11-03T00:00:00.000Z +debit +-120 +e2$/),
      expect.stringMatching(/^2026-11-04T00:00:00.000Z +transfer_in +\+30 +e3$/),
    ]);
    expect(out.slice(-2)).toEqual(['  credits 530, debits 120', '  closing balance 510']);
  });
});

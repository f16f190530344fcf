import { describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/run';
import { recordingContext } from '../../support/cli/context';

const ACCOUNT = '6f1c0e0a-0000-4000-8000-000000000001';

function context(answer: (request: Request) => Promise<Response> | Response) {
  const asked: Request[] = [];
  const bodies: unknown[] = [];
  const fetch = (async (request: Request) => {
    asked.push(request);
    if (request.method === 'POST') bodies.push(await request.clone().json());
    return answer(request);
  }) as typeof globalThis.fetch;
  return { ...recordingContext({ env: {}, fetch }), asked, bodies };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ACCOUNT_BODY = {
  id: ACCOUNT,
  currency: 'EUR',
  balance: 0,
  available: 0,
  overdraftLimit: 500,
  status: 'open',
  version: 0,
  creditIntake: 'deferred',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('npm run cli -- settings', () => {
  it('POSTs only the given fields under the given Idempotency-Key and prints the account', async () => {
    const c = context(() => json(ACCOUNT_BODY));
    const argv = ['settings', '--account', ACCOUNT, '--credit-intake', 'deferred'];
    expect(await runCli([...argv, '--overdraft-limit', '500', '--key', 'k-1'], c.ctx)).toBe(0);
    expect(new URL(c.asked[0]?.url ?? '').pathname).toBe(`/v1/accounts/${ACCOUNT}/settings`);
    expect(c.asked[0]?.headers.get('idempotency-key')).toBe('k-1');
    expect(c.bodies).toEqual([{ creditIntake: 'deferred', overdraftLimit: 500 }]);
    expect(c.out.join('\n')).toContain('creditIntake deferred, overdraftLimit 500');

    const only = context(() => json(ACCOUNT_BODY));
    expect(
      await runCli(['settings', '--account', ACCOUNT, '--overdraft-limit', '0'], only.ctx),
    ).toBe(0);
    expect(only.bodies).toEqual([{ overdraftLimit: 0 }]);
  });

  it('refuses a call without a setting, or with an unknown mode (exit 2, nothing sent)', async () => {
    for (const extra of [[], ['--credit-intake', 'later'], ['--overdraft-limit', '-1']]) {
      const c = context(() => json(ACCOUNT_BODY));
      expect(await runCli(['settings', '--account', ACCOUNT, ...extra], c.ctx)).toBe(2);
      expect(c.asked).toHaveLength(0);
    }
  });

  it('exits 1 with the problem code when the API refuses', async () => {
    const problem = { code: 'insufficient_funds', detail: 'drawn', status: 409 };
    const c = context(() => json(problem, 409));
    const argv = ['settings', '--account', ACCOUNT, '--overdraft-limit', '0'];
    expect(await runCli(argv, c.ctx)).toBe(1);
    expect(c.err.join('\n')).toContain('409 insufficient_funds');
  });
});

describe('npm run cli -- pending-credits', () => {
  const pending = (entryId: string, acceptedAt: string) => ({
    entryId,
    accountId: ACCOUNT,
    amount: 250,
    currency: 'EUR',
    kind: 'credit',
    acceptedAt,
    effectiveAt: acceptedAt,
  });

  it('follows nextCursor through every page and counts the credits', async () => {
    const c = context((request) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      return cursor === 'page-2'
        ? json({ items: [pending('e2', '2026-11-02T00:00:00.000Z')], nextCursor: null })
        : json({ items: [pending('e1', '2026-11-01T00:00:00.000Z')], nextCursor: 'page-2' });
    });
    const argv = ['pending-credits', '--account', ACCOUNT, '--page-size', '1'];
    expect(await runCli(argv, c.ctx)).toBe(0);
    const urls = c.asked.map((request) => new URL(request.url));
    expect(urls.map((url) => url.pathname)).toEqual([
      `/v1/accounts/${ACCOUNT}/pending-credits`,
      `/v1/accounts/${ACCOUNT}/pending-credits`,
    ]);
    expect(urls.map((url) => url.searchParams.get('cursor'))).toEqual([null, 'page-2']);
    expect(c.out.filter((line) => /\be[12]$/.test(line)).map((line) => line.trim())).toEqual([
      expect.stringMatching(/^2026-11-01T00:00:00.000Z +credit +\+250 +e1$/),
      expect.stringMatching(/^2026-11-02T00:00:00.000Z +credit +\+250 +e2$/),
    ]);
    expect(c.out.at(-1)).toBe(`2 pending credit(s) on ${ACCOUNT}`);
  });

  it('prints a credit the run lists twice once (docs/contract.md §24)', async () => {
    const first = pending('e1', '2026-11-01T00:00:00.000Z');
    const c = context((request) =>
      new URL(request.url).searchParams.get('cursor') === 'again'
        ? json({ items: [pending('e0', '2026-10-31T00:00:00.000Z'), first], nextCursor: null })
        : json({ items: [first], nextCursor: 'again' }),
    );
    expect(await runCli(['pending-credits', '--account', ACCOUNT], c.ctx)).toBe(0);
    expect(c.out.filter((line) => /\be[01]$/.test(line))).toHaveLength(2);
    expect(c.out.at(-1)).toBe(`2 pending credit(s) on ${ACCOUNT}`);
  });
});

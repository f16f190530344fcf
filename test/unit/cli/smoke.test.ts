import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { runSmokeCommand } from '../../../cli/smoke/run';

/**
 * The smoke test must catch a broken deployment: here an API that answers every POST afresh
 * (no idempotency at all) and otherwise behaves. Its callback route checks Standard Webhooks
 * signatures with the reference package. The happy path runs against the real local stack in
 * test/e2e/smoke.test.ts.
 */
const CALLBACK_SECRET = 'smoke-unit-secret-0123456789';

function forgetfulApi() {
  const balances = new Map<string, number>();
  const seen = new Set<string>();
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  return (async (request: Request) => {
    const url = new URL(request.url);
    const principal = request.headers.get('x-principal-id');
    if (url.pathname === '/v1/openapi.json') return json(200, { openapi: '3.1.0' });
    if (url.pathname.startsWith('/v1/callbacks/')) {
      const body = await request.text();
      try {
        new Webhook(CALLBACK_SECRET, { format: 'raw' }).verify(
          body,
          Object.fromEntries(request.headers.entries()),
        );
      } catch {
        return json(401, { code: 'invalid_signature' });
      }
      const id = request.headers.get('webhook-id') ?? '';
      const outcome = seen.has(id) ? 'duplicate' : 'applied';
      seen.add(id);
      return json(200, { outcome });
    }
    if (!principal) return json(401, { code: 'unauthenticated' });
    if (request.method === 'POST' && url.pathname === '/v1/accounts') {
      const id = randomUUID();
      balances.set(id, 0);
      return json(201, { id, currency: 'EUR', balance: 0 });
    }
    const account = url.pathname.split('/')[3] ?? '';
    if (request.method === 'POST' && url.pathname.endsWith('/exports')) {
      return json(202, { id: randomUUID(), accountId: account, currentExecutionId: randomUUID() });
    }
    if (request.method === 'POST' && url.pathname.endsWith('/transactions')) {
      const { amount } = (await request.json()) as { amount: number };
      balances.set(account, (balances.get(account) ?? 0) + amount);
      return json(201, { id: randomUUID(), amount });
    }
    if (!principal.startsWith('smoke-stranger') && balances.has(account)) {
      return json(200, { id: account, currency: 'EUR', balance: balances.get(account) });
    }
    return json(404, { code: 'not_found' });
  }) as typeof fetch;
}

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSmokeCommand(argv, {
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    fetch: forgetfulApi(),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run smoke', () => {
  it('reports FAIL for replay, mismatch and concurrent duplicates of an API without idempotency, and exits 1', async () => {
    const { code, out } = await run(['--url', 'http://api.test']);

    expect(out).toMatch(
      /^FAIL +replay: same key and body answer the first response +no Idempotent-Replayed$/m,
    );
    expect(out).toMatch(/^FAIL +mismatch: same key, other body is refused +answered 201$/m);
    expect(out).toMatch(/^FAIL +concurrent duplicates have one effect +8 different transactions/m);
    expect(out).toMatch(/^PASS +another principal cannot see the account/m);
    expect(out).toMatch(/^SKIP +signed callback round trip +no callback secret given/m);
    expect(out).toMatch(/smoke: FAIL \(3 of 8 checks\)$/);
    expect(code).toBe(1);
  });

  it('proves a callback round trip signed with Standard Webhooks when asked to', async () => {
    const { out } = await run([
      '--url',
      'http://api.test',
      '--callback-secret',
      CALLBACK_SECRET,
      '--callback-scheme',
      'standard-webhooks',
    ]);

    expect(out).toMatch(
      /^PASS +signed callback is accepted \(Standard Webhooks v1\) +200 applied$/m,
    );
    expect(out).toMatch(/^PASS +the same callback again is a duplicate/m);
    expect(out).toMatch(
      /^PASS +a callback changed after signing is refused +401 invalid_signature$/m,
    );
  });

  it.each([
    [[], /--url .* is required/],
    [['--url', 'http://x', '--callback-scheme', 'hmac'], /--callback-scheme must be one of/],
    [['--url', 'http://x', '--callback-secret', 'whsec_!!'], /must be base64/],
    [['--url', 'ftp://x'], /--url .* is required/],
    [['--url', 'http://x', '--auth', 'basic'], /--auth must be local, iam or jwt/],
    [['--url', 'http://x', '--auth', 'jwt'], /needs SMOKE_JWT/],
    [['--url', 'http://x', '--auth', 'iam'], /needs --region or AWS_REGION/],
    [['--url', 'http://x', '--concurrency', '1'], /--concurrency/],
    [['--url', 'http://x', '--bogus'], /bogus/],
  ])('exits 2 with usage for %j', async (argv, message) => {
    const { code, err } = await run(argv);

    expect(err).toMatch(message);
    expect(err).toContain('usage: npm run smoke');
    expect(code).toBe(2);
  });
});

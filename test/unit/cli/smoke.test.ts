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

interface Body {
  readonly amount: number;
  readonly fromAccountId: string;
  readonly toAccountId: string;
}

function forgetfulApi() {
  const accounts = new Map<string, { balance: number; available: number }>();
  const holds = new Map<
    string,
    { id: string; accountId: string; amount: number; status: string }
  >();
  const transfers = new Map<string, unknown>();
  const ledgerTransactions = new Map<string, unknown>();
  const journals = new Map<string, Record<string, unknown>[]>();
  const seen = new Set<string>();
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  return (async (request: Request) => {
    const url = new URL(request.url);
    const principal = request.headers.get('x-principal-id');
    const route = `${request.method} ${url.pathname.replace(/[0-9a-f-]{36}/g, '{id}')}`;
    if (url.pathname === '/v1/openapi.json') return json(200, { openapi: '3.1.0' });
    if (url.pathname === '/v1/health') return json(200, { status: 'ok', checks: { table: 'ok' } });
    if (url.pathname.startsWith('/v1/problems/')) {
      return new Response(`<h1><code>${url.pathname.split('/').at(-1)}</code></h1>`, {
        headers: { 'content-type': 'text/html' },
      });
    }
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
    const [, , , first = '', second = ''] = url.pathname.split('/');
    const body = (request.method === 'POST' ? await request.json() : {}) as Body;
    const move = (id: string, balance: number, available: number) => {
      const account = accounts.get(id) ?? { balance: 0, available: 0 };
      const next = { balance: account.balance + balance, available: account.available + available };
      accounts.set(id, next);
      const journal = journals.get(id) ?? [];
      journal.push({
        accountId: id,
        sequence: journal.length + 1,
        kind: 'credit',
        balanceDelta: balance,
        availableDelta: available,
        balanceAfter: next.balance,
        availableAfter: next.available,
        committedAt: new Date().toISOString(),
      });
      journals.set(id, journal);
    };
    const version = (id: string) => journals.get(id)?.length ?? 0;
    switch (route) {
      case 'POST /v1/accounts': {
        const id = randomUUID();
        accounts.set(id, { balance: 0, available: 0 });
        return json(201, { id, currency: 'EUR', balance: 0, available: 0 });
      }
      case 'POST /v1/accounts/{id}/exports':
        return json(202, { id: randomUUID(), accountId: first, currentExecutionId: randomUUID() });
      case 'GET /v1/tasks/{id}/result':
        return json(409, { code: 'task_not_succeeded' });
      case 'POST /v1/accounts/{id}/transactions':
        move(first, body.amount, body.amount);
        return json(201, { id: randomUUID(), amount: body.amount });
      case 'POST /v1/transfers': {
        move(body.fromAccountId, -body.amount, -body.amount);
        move(body.toAccountId, body.amount, body.amount);
        const transfer = { id: randomUUID(), ...(body as object) };
        transfers.set(transfer.id, transfer);
        return json(201, transfer);
      }
      case 'GET /v1/transfers/{id}':
        return json(200, transfers.get(first));
      case 'POST /v1/accounts/{id}/holds': {
        const hold = { id: randomUUID(), accountId: first, amount: body.amount, status: 'active' };
        holds.set(hold.id, hold);
        move(first, 0, -body.amount);
        return json(201, hold);
      }
      case 'GET /v1/accounts/{id}/holds':
        return json(200, { items: [...holds.values()].filter((h) => h.accountId === first) });
      case 'GET /v1/holds/{id}':
        return json(200, holds.get(first));
      case 'POST /v1/ledger-transactions': {
        const { legs } = body as unknown as {
          legs: { accountId: string; direction: string; amount: number }[];
        };
        for (const leg of legs) {
          const delta = leg.direction === 'credit' ? leg.amount : -leg.amount;
          move(leg.accountId, delta, delta);
        }
        const made = { id: randomUUID(), ...(body as object) };
        ledgerTransactions.set(made.id, made);
        return json(201, made);
      }
      case 'GET /v1/ledger-transactions/{id}':
        return json(200, ledgerTransactions.get(first));
      case 'POST /v1/ledger-transactions/{id}/reversals': {
        const made = ledgerTransactions.get(first) as {
          legs: { accountId: string; direction: string; amount: number }[];
        };
        for (const leg of made.legs) {
          const delta = leg.direction === 'credit' ? -leg.amount : leg.amount;
          move(leg.accountId, delta, delta);
        }
        return json(201, { id: randomUUID(), amount: 0 });
      }
      case 'POST /v1/batches': {
        const { operations } = body as unknown as {
          operations: { key: string; accountId: string; body: { amount: number } }[];
        };
        const results = operations.map((op) => {
          move(op.accountId, op.body.amount, op.body.amount);
          return { key: op.key, status: 201, body: { id: randomUUID(), amount: op.body.amount } };
        });
        return json(200, { mode: 'independent', results });
      }
      case 'POST /v1/accounts/{id}/close':
        return json(200, { id: first, status: 'closed', ...accounts.get(first) });
      case 'GET /v1/accounts/{id}/journal': {
        const after = Number(url.searchParams.get('afterSequence') ?? 0);
        const items = (journals.get(first) ?? []).filter((r) => Number(r.sequence) > after);
        return json(200, { items, nextAfterSequence: null });
      }
      case 'GET /v1/accounts/{id}/balances':
        return json(200, { accountId: first, ...accounts.get(first), sequence: version(first) });
      case 'POST /v1/holds/{id}/captures':
      case 'POST /v1/holds/{id}/voids': {
        const hold = holds.get(first);
        if (!hold) return json(404, { code: 'not_found' });
        const captured = second === 'captures' ? body.amount : 0;
        Object.assign(hold, { status: captured ? 'captured' : 'voided', capturedAmount: captured });
        move(hold.accountId, -captured, hold.amount - captured);
        return json(200, hold);
      }
    }
    const account = accounts.get(first);
    if (!principal.startsWith('smoke-stranger') && account) {
      return json(200, { id: first, currency: 'EUR', ...account, version: version(first) });
    }
    return json(404, { code: 'not_found' });
  }) as typeof fetch;
}

/** What a stage deployed before issue 23 answers: API Gateway's own 404 on the missing routes. */
function apiWithoutRoutes(missing: RegExp) {
  const api = forgetfulApi();
  return (async (request: Request) =>
    missing.test(new URL(request.url).pathname)
      ? new Response('{"message":"Not Found"}', { status: 404 })
      : api(request)) as typeof fetch;
}

async function run(argv: string[], env: Record<string, string> = {}, fetch = forgetfulApi()) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSmokeCommand(argv, {
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    fetch,
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
    expect(out).toMatch(
      /^FAIL +a batch applies its operations once; it and its operations replay +the batch's replay/m,
    );
    expect(out).toMatch(/smoke: FAIL \(4 of 17 checks\)$/);
    expect(code).toBe(1);
  });

  it('passes transfers, holds and the export result on an API that serves their routes', async () => {
    const { out } = await run(['--url', 'http://api.test']);

    expect(out).toMatch(/^PASS +a transfer moves money between two accounts/m);
    expect(out).toMatch(/^PASS +a hold is placed, listed and read/m);
    expect(out).toMatch(/^PASS +holds are captured and voided/m);
    expect(out).toMatch(/^PASS +the export result route is served +409 task_not_succeeded$/m);
    expect(out).toMatch(/^PASS +a ledger transaction is made, read and reversed/m);
    expect(out).toMatch(/^PASS +the journal reaches the account's version; as-of balances answer/m);
  });

  it('fails a stage whose API Gateway lacks the transfer, hold and result routes', async () => {
    const missing =
      /^\/v1\/(transfers|holds|accounts\/[^/]+\/(holds|journal|balances)|tasks\/[^/]+\/result|ledger-transactions)/;
    const { code, out } = await run(['--url', 'http://api.test'], {}, apiWithoutRoutes(missing));

    expect(out).toMatch(/^FAIL +a transfer moves money between two accounts +answered 404$/m);
    expect(out).toMatch(/^FAIL +a hold is placed, listed and read +answered 404$/m);
    expect(out).toMatch(/^SKIP +holds are captured and voided +no hold was placed$/m);
    expect(out).toMatch(/^FAIL +the export result route is served +answered 404$/m);
    expect(out).toMatch(/^FAIL +a ledger transaction is made, read and reversed.* +answered 404$/m);
    expect(out).toMatch(
      /^FAIL +the journal reaches the account's version.* +journal answered 404$/m,
    );
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

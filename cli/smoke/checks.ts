import { randomUUID } from 'node:crypto';
import type { LedgerClient } from '../../client/index';
import { type CallbackProbe, callbackChecks } from './callback-checks';
import { type Check, type CheckResult, describeAnswer, expectThat, runChecks, skip } from './check';
import { featureChecks } from './feature-checks';

/**
 * The post-deploy conformance checks (`npm run smoke`): each proves one promise of the contract
 * against a running API, on a throwaway account, with the typed client.
 */
export interface SmokeOptions {
  /** Calls made with the caller's identity. */
  readonly client: LedgerClient;
  /** Calls made with no identity at all (must be refused). */
  readonly anonymous: LedgerClient;
  /** Calls made as another principal (local stack only): must not see the account. */
  readonly stranger?: LedgerClient;
  /** Parallel duplicates in the concurrency check. @default 8 */
  readonly concurrency?: number;
  /** Signs a callback for the account's export; absent when no secret was given. */
  readonly callback?: CallbackProbe;
}

/** Runs the checks in order; a check whose input is missing (an earlier failure) is SKIP. */
export async function runSmoke(options: SmokeOptions): Promise<CheckResult[]> {
  const { client } = options;
  const state: { accountId?: string } = {};
  const needAccount = () => state.accountId ?? skip('no account (an earlier check failed)');
  const accountKey = `smoke-account-${randomUUID()}`;
  const accountBody = { currency: 'EUR', name: `smoke ${new Date().toISOString()}` };
  let firstAccountText = '';

  const checks: Check[] = [
    [
      'the health check answers',
      async () => {
        const { data, response, error } = await options.anonymous.GET('/v1/health');
        expectThat(response.status === 200, `answered ${describeAnswer(response, error)}`);
        expectThat(data?.checks.table === 'ok', 'the table check is not ok');
        return '200, the table answers';
      },
    ],
    [
      'OpenAPI document is served',
      async () => {
        const { data, response } = await options.anonymous.GET('/v1/openapi.json');
        expectThat(response.status === 200, `answered ${response.status}`);
        expectThat(JSON.stringify(data).includes('"openapi":"3.1'), 'not an OpenAPI 3.1 document');
        return '200, OpenAPI 3.1';
      },
    ],
    [
      'problem types resolve to their documentation',
      async () => {
        const code = 'idempotency_key_reused';
        const { data, response } = await options.anonymous.GET('/v1/problems/{code}', {
          params: { path: { code } },
          parseAs: 'text',
        });
        expectThat(response.status === 200, `GET /v1/problems/${code} answered ${response.status}`);
        expectThat(String(data).includes(`<code>${code}</code>`), 'not the page of that code');
        return `200, /v1/problems/${code}`;
      },
    ],
    [
      'a request without identity is refused',
      async () => {
        const { response, error } = await options.anonymous.GET('/v1/accounts/{accountId}', {
          params: { path: { accountId: randomUUID() } },
        });
        expectThat(response.status === 401, `answered ${describeAnswer(response, error)}`);
        return '401 unauthenticated';
      },
    ],
    [
      'create a throwaway account',
      async () => {
        const { data, response, error } = await client.POST('/v1/accounts', {
          params: { header: { 'Idempotency-Key': accountKey } },
          body: accountBody,
          parseAs: 'text',
        });
        expectThat(response.status === 201, `answered ${describeAnswer(response, error)}`);
        firstAccountText = data ?? '';
        const account = JSON.parse(firstAccountText) as { id?: string };
        expectThat(typeof account.id === 'string', 'no id in the answer');
        state.accountId = account.id;
        return `201, account ${account.id}`;
      },
    ],
    [
      'replay: same key and body answer the first response',
      async () => {
        needAccount();
        const { data, response } = await client.POST('/v1/accounts', {
          params: { header: { 'Idempotency-Key': accountKey } },
          body: accountBody,
          parseAs: 'text',
        });
        expectThat(response.status === 201, `answered ${response.status}`);
        expectThat(
          response.headers.get('idempotent-replayed') === 'true',
          'no Idempotent-Replayed',
        );
        expectThat(data === firstAccountText, 'the body differs from the first response');
        return '201, same body, Idempotent-Replayed: true';
      },
    ],
    [
      'mismatch: same key, other body is refused',
      async () => {
        needAccount();
        const { response, error } = await client.POST('/v1/accounts', {
          params: { header: { 'Idempotency-Key': accountKey } },
          body: { ...accountBody, name: 'another body' },
        });
        expectThat(
          response.status === 422 && error?.code === 'idempotency_key_reused',
          `answered ${describeAnswer(response, error)}`,
        );
        return '422 idempotency_key_reused';
      },
    ],
    [
      'concurrent duplicates have one effect',
      async () => concurrentDuplicates(client, needAccount(), options.concurrency ?? 8),
    ],
    ...(options.stranger ? [strangerCheck(options.stranger, needAccount)] : []),
    ...featureChecks(client, needAccount),
    ...callbackChecks(client, options.callback, needAccount),
  ];

  return runChecks(checks);
}

/** N identical credits at once: every answer is the one transaction (or 409 in use), balance +1×. */
async function concurrentDuplicates(
  client: LedgerClient,
  accountId: string,
  count: number,
): Promise<string> {
  const before = await client.GET('/v1/accounts/{accountId}', {
    params: { path: { accountId } },
  });
  expectThat(
    before.response.status === 200 && !!before.data,
    `GET answered ${before.response.status}`,
  );
  const key = `smoke-credit-${randomUUID()}`;
  const amount = 1000;
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      client.POST('/v1/accounts/{accountId}/transactions', {
        params: { path: { accountId }, header: { 'Idempotency-Key': key } },
        body: { type: 'credit', amount, currency: 'EUR' },
      }),
    ),
  );
  const created = answers.filter((a) => a.response.status === 201);
  const inUse = answers.filter((a) => a.error?.code === 'idempotency_key_in_use');
  expectThat(created.length >= 1, 'no attempt answered 201');
  expectThat(
    created.length + inUse.length === count,
    `unexpected answers: ${answers.map((a) => describeAnswer(a.response, a.error)).join(', ')}`,
  );
  const ids = new Set(created.map((a) => a.data?.id));
  expectThat(ids.size === 1, `${ids.size} different transactions were created`);
  const after = await client.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } });
  const delta = (after.data?.balance ?? Number.NaN) - before.data.balance;
  expectThat(delta === amount, `the balance moved by ${delta}, expected ${amount}`);
  return `${count} parallel: ${created.length}×201 (one transaction), ${inUse.length}×409, balance +${amount}`;
}

function strangerCheck(stranger: LedgerClient, needAccount: () => string): Check {
  return [
    'another principal cannot see the account',
    async () => {
      const { response, error } = await stranger.GET('/v1/accounts/{accountId}', {
        params: { path: { accountId: needAccount() } },
      });
      expectThat(response.status === 404, `answered ${describeAnswer(response, error)}`);
      return '404 not_found';
    },
  ];
}

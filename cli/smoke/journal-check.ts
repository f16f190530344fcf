import { randomUUID } from 'node:crypto';
import type { LedgerClient } from '../../client/index';
import { sleep } from '../../functions/domain/shared/retry';
import { CheckFailed, describeAnswer, expectThat } from './check';

/** How long the journal may take to reach a credit (docs/contract.md §15: within seconds). */
const JOURNAL_WAIT_MS = 15_000;
const POLL_MS = 250;

/**
 * The journal projector runs and the journal routes are deployed: a credit's record reaches
 * the account's `version` with the account's balance, and as-of balances for now answer it.
 */
export async function journalCheck(client: LedgerClient, accountId: string): Promise<string> {
  const credited = await client.POST('/v1/accounts/{accountId}/transactions', {
    params: { path: { accountId }, header: { 'Idempotency-Key': randomUUID() } },
    body: { type: 'credit', amount: 7, currency: 'EUR' },
  });
  expectThat(
    credited.response.status === 201,
    `credit answered ${describeAnswer(credited.response, credited.error)}`,
  );
  const read = await client.GET('/v1/accounts/{accountId}', { params: { path: { accountId } } });
  const account = read.data ?? fail(`GET answered ${read.response.status}`);
  const started = Date.now();
  let last: { sequence: number; balanceAfter: number } | undefined;
  for (;;) {
    const page = await client.GET('/v1/accounts/{accountId}/journal', {
      params: { path: { accountId }, query: { afterSequence: Math.max(0, account.version - 1) } },
    });
    expectThat(
      page.response.status === 200,
      `journal answered ${describeAnswer(page.response, page.error)}`,
    );
    last = page.data?.items.at(-1);
    if (last && last.sequence >= account.version) break;
    if (Date.now() - started > JOURNAL_WAIT_MS) {
      fail(
        `the journal is at ${last?.sequence ?? 'nothing'} of version ${account.version} after ${JOURNAL_WAIT_MS / 1000} s`,
      );
    }
    await sleep(POLL_MS);
  }
  const took = Date.now() - started;
  expectThat(
    last.sequence === account.version && last.balanceAfter === account.balance,
    `record ${last.sequence} ends at ${last.balanceAfter}, the account at ${account.balance} (version ${account.version})`,
  );
  const asOf = await client.GET('/v1/accounts/{accountId}/balances', {
    params: { path: { accountId }, query: { asOf: new Date().toISOString() } },
  });
  const sequence = asOf.data && 'sequence' in asOf.data ? asOf.data.sequence : undefined;
  expectThat(
    sequence === account.version && asOf.data?.balance === account.balance,
    `balances answered ${describeAnswer(asOf.response, asOf.error)}`,
  );
  return `record ${account.version} within ${took} ms, as-of 200`;
}

const fail = (message: string): never => {
  throw new CheckFailed(message);
};

import { randomUUID } from 'node:crypto';
import type { LedgerClient } from '../../client/index';
import { CheckFailed, describeAnswer, expectThat } from './check';

/**
 * `POST /v1/batches` is deployed and exactly-once (docs/contract.md §25): a batch of two
 * credits answers both, its replay with its key answers the same results, and one of its
 * operations sent alone on the single route is a replay; the balance moved once.
 */
export async function batchCheck(client: LedgerClient, accountId: string): Promise<string> {
  const keys = [randomUUID(), randomUUID()] as const;
  const credit = (amount: number) => ({ type: 'credit' as const, amount, currency: 'EUR' });
  const operations = keys.map((key, i) => ({
    key,
    op: 'credit' as const,
    accountId,
    body: credit(3 + i),
  }));
  const batchKey = randomUUID();
  const send = () =>
    client.POST('/v1/batches', {
      params: { header: { 'Idempotency-Key': batchKey } },
      body: { mode: 'independent', operations },
    });
  const before = await balance(client, accountId);
  const first = await send();
  const statuses = first.data?.results.map((r) => r.status).join(',');
  expectThat(
    first.response.status === 200 && statuses === '201,201',
    `batch answered ${first.data ? `results ${statuses}` : describeAnswer(first.response, first.error)}`,
  );
  const again = await send();
  expectThat(
    again.response.headers.get('idempotent-replayed') === 'true' &&
      JSON.stringify(again.data) === JSON.stringify(first.data),
    `the batch's replay answered ${describeAnswer(again.response, again.error)} without the same results`,
  );
  const alone = await client.POST('/v1/accounts/{accountId}/transactions', {
    params: { path: { accountId }, header: { 'Idempotency-Key': keys[0] } },
    body: credit(3),
  });
  expectThat(
    alone.response.headers.get('idempotent-replayed') === 'true',
    `an operation sent alone answered ${describeAnswer(alone.response, alone.error)}, not its replay`,
  );
  const moved = (await balance(client, accountId)) - before;
  expectThat(moved === 7, `the balance moved by ${moved}, not 7`);
  return '200 (2 × 201), batch and operation replayed, balance +7';
}

async function balance(client: LedgerClient, accountId: string): Promise<number> {
  const { data, response } = await client.GET('/v1/accounts/{accountId}', {
    params: { path: { accountId } },
  });
  if (response.status !== 200 || !data) throw new CheckFailed(`GET answered ${response.status}`);
  return data.balance;
}

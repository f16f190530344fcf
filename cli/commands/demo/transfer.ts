import type { LedgerClient } from '../../../client/index';
import { balanceOf, type Call, expectStatus } from '../../client';

/** How the demo awaits a typed-client call (a request that never reached the API is a CliError). */

/**
 * The demo's double-entry part (docs/contract.md §10): a second account, a transfer to it, the
 * replay of that transfer with the same Idempotency-Key, and both balances afterwards. Returns
 * the lines to print under the credit step and the source's balance afterwards.
 */
export async function demoTransfer(
  api: LedgerClient,
  call: Call,
  fromAccountId: string,
  amount: number,
  run: string,
): Promise<{ lines: string[]; balanceAfter: number }> {
  const savings = expectStatus(
    await call(
      api.POST('/v1/accounts', {
        params: { header: { 'Idempotency-Key': `demo-savings-${run}` } },
        body: { currency: 'EUR', name: 'Demo savings' },
      }),
    ),
    201,
    'POST /v1/accounts',
  );
  const toAccountId = savings.id;
  const send = () =>
    call(
      api.POST('/v1/transfers', {
        params: { header: { 'Idempotency-Key': `demo-transfer-${run}` } },
        body: { fromAccountId, toAccountId, amount, currency: 'EUR', reference: 'cli demo' },
      }),
    );
  const first = await send();
  const transfer = expectStatus(first, 201, 'POST /v1/transfers');
  const replay = await send();
  expectStatus(replay, 201, 'POST /v1/transfers');
  const replayed =
    replay.response.headers.get('idempotent-replayed') === 'true' &&
    JSON.stringify(replay.data) === JSON.stringify(transfer);
  const balance = (accountId: string) => balanceOf(api, call, accountId);
  const [from, to] = [await balance(fromAccountId), await balance(toAccountId)];
  return {
    balanceAfter: from,
    lines: [
      `   transferred ${amount} EUR to account ${toAccountId} (transfer ${transfer.id}, one transaction: transfer_out and transfer_in entries)`,
      `   the same Idempotency-Key again: 201 ${replayed ? 'replayed (Idempotent-Replayed: true, same body)' : 'NOT replayed'}, nothing moved twice`,
      `   balances now ${from} and ${to}: the sum is unchanged`,
    ],
  };
}

import { type ApiAnswer, expectStatus } from './api';

type Api = (
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  key?: string,
) => Promise<ApiAnswer>;

/**
 * The demo's double-entry part (docs/contract.md §10): a second account, a transfer to it, the
 * replay of that transfer with the same Idempotency-Key, and both balances afterwards. Returns
 * the lines to print under the credit step and the source's balance afterwards.
 */
export async function demoTransfer(
  api: Api,
  fromAccountId: string,
  amount: number,
  run: string,
): Promise<{ lines: string[]; balanceAfter: number }> {
  const savings = expectStatus(
    await api(
      'POST',
      '/v1/accounts',
      { currency: 'EUR', name: 'Demo savings' },
      `demo-savings-${run}`,
    ),
    201,
    'POST /v1/accounts',
  ).json;
  const toAccountId = String(savings.id);
  const body = { fromAccountId, toAccountId, amount, currency: 'EUR', reference: 'cli demo' };
  const key = `demo-transfer-${run}`;
  const transfer = expectStatus(
    await api('POST', '/v1/transfers', body, key),
    201,
    'POST /v1/transfers',
  );
  const replay = expectStatus(
    await api('POST', '/v1/transfers', body, key),
    201,
    'POST /v1/transfers',
  );
  const balance = async (id: string) =>
    Number(
      expectStatus(await api('GET', `/v1/accounts/${id}`), 200, 'GET /v1/accounts/{id}').json
        .balance,
    );
  const [from, to] = [await balance(fromAccountId), await balance(toAccountId)];
  const replayed =
    replay.headers.get('idempotent-replayed') === 'true' && replay.text === transfer.text;
  return {
    balanceAfter: from,
    lines: [
      `   transferred ${amount} EUR to account ${toAccountId} (transfer ${transfer.json.id}, one transaction: transfer_out and transfer_in entries)`,
      `   the same Idempotency-Key again: 201 ${replayed ? 'replayed byte for byte (Idempotent-Replayed: true)' : 'NOT replayed'}, nothing moved twice`,
      `   balances now ${from} and ${to}: the sum is unchanged`,
    ],
  };
}

import type { LedgerClient } from '../../../client/index';
import { balanceOf, type Call, expectStatus } from '../../client';

/** How the demo awaits a typed-client call (a request that never reached the API is a CliError). */

/**
 * The demo's ledger-depth part (docs/contract.md §16): a split payment from the payer to a
 * seller, a platform fee and tax as ONE ledger transaction of four legs, then its refund (the
 * whole transaction reversed). Returns the lines to print and the payer's balance afterwards.
 */
export async function demoSplitPayment(
  api: LedgerClient,
  call: Call,
  payerId: string,
  amount: number,
  run: string,
): Promise<{ lines: string[]; balanceAfter: number }> {
  const open = async (name: string) =>
    expectStatus(
      await call(
        api.POST('/v1/accounts', {
          params: { header: { 'Idempotency-Key': `demo-${name}-${run}` } },
          body: { currency: 'EUR', name: `Demo ${name}` },
        }),
      ),
      201,
      'POST /v1/accounts',
    ).id;
  const [seller, fee, tax] = [await open('seller'), await open('fee'), await open('tax')];
  const toSeller = Math.floor(amount * 0.8);
  const toFee = Math.floor(amount * 0.15);
  const legs = [
    { accountId: payerId, direction: 'debit' as const, amount },
    { accountId: seller, direction: 'credit' as const, amount: toSeller },
    { accountId: fee, direction: 'credit' as const, amount: toFee },
    { accountId: tax, direction: 'credit' as const, amount: amount - toSeller - toFee },
  ].filter((leg) => leg.amount > 0);
  const split = expectStatus(
    await call(
      api.POST('/v1/ledger-transactions', {
        params: { header: { 'Idempotency-Key': `demo-split-${run}` } },
        body: { currency: 'EUR', legs, reference: 'cli demo order', metadata: { channel: 'cli' } },
      }),
    ),
    201,
    'POST /v1/ledger-transactions',
  );
  const balance = (accountId: string) => balanceOf(api, call, accountId);
  const shares = await Promise.all(legs.slice(1).map((leg) => balance(leg.accountId)));
  const refund = expectStatus(
    await call(
      api.POST('/v1/ledger-transactions/{ledgerTransactionId}/reversals', {
        params: {
          path: { ledgerTransactionId: split.id },
          header: { 'Idempotency-Key': `demo-refund-${run}` },
        },
        body: { reference: 'cli demo refund' },
      }),
    ),
    201,
    'POST /v1/ledger-transactions/{id}/reversals',
  );
  const after = await balance(payerId);
  const back = await Promise.all(legs.slice(1).map((leg) => balance(leg.accountId)));
  return {
    balanceAfter: after,
    lines: [
      `   split a payment of ${amount} EUR: seller, fee and tax got ${shares.join(', ')} (ledger transaction ${split.id}, ${legs.length} legs in ONE transaction)`,
      `   refunded it: reversal ${refund.id} moved all ${refund.amount} back (entries of type reversal); their balances are ${back.join(', ')}, the payer's ${after} again`,
    ],
  };
}

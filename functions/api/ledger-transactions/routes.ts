import type { Json } from '../../domain/idempotency/fingerprint';
import type { LedgerTransactionService } from '../../domain/ledger-transactions/service';
import type { RouteHandlers } from '../router';
import type { LEDGER_TRANSACTION_ROUTES } from './spec';

/**
 * What a ledger transaction's fingerprint covers: the body as received with the legs' account
 * ids lower-cased, like every other UUID (§4). The body parsed as a strict object with a legs
 * array, so the casts hold. A batch operation (docs/contract.md §25) uses the same function.
 */
export function ledgerTransactionFingerprinted(
  body: Json,
  input: { readonly legs: readonly { readonly accountId: string }[] },
): Json {
  const raw = body as Record<string, Json>;
  const legs = (raw.legs as Record<string, Json>[]).map((leg, i) => ({
    ...leg,
    accountId: input.legs[i]?.accountId ?? null,
  }));
  return { ...raw, legs };
}

/** N-leg ledger transactions (docs/contract.md §16). */
export function ledgerTransactionHandlers(
  service: LedgerTransactionService,
): RouteHandlers<typeof LEDGER_TRANSACTION_ROUTES> {
  return {
    createLedgerTransaction: ({ command }) =>
      service.createLedgerTransaction(
        command.ctx,
        command.input,
        ledgerTransactionFingerprinted(command.body, command.input),
      ),
    getLedgerTransaction: ({ principal, params }) =>
      service.getLedgerTransaction(principal, params.ledgerTransactionId),
  };
}

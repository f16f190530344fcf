import type { Json } from '../../domain/idempotency/fingerprint';
import type { LedgerTransactionService } from '../../domain/ledger-transactions/service';
import type { RouteHandlers } from '../router';
import type { LEDGER_TRANSACTION_ROUTES } from './spec';

/** N-leg ledger transactions (docs/contract.md §16). */
export function ledgerTransactionHandlers(
  service: LedgerTransactionService,
): RouteHandlers<typeof LEDGER_TRANSACTION_ROUTES> {
  return {
    createLedgerTransaction: ({ command }) => {
      // The fingerprint sees the legs' account ids lower-cased, like every other UUID (§4); the
      // body parsed as a strict object with a legs array, so the casts hold.
      const body = command.body as Record<string, Json>;
      const legs = (body.legs as Record<string, Json>[]).map((leg, i) => ({
        ...leg,
        accountId: command.input.legs[i]?.accountId ?? null,
      }));
      return service.createLedgerTransaction(command.ctx, command.input, { ...body, legs });
    },
    getLedgerTransaction: ({ principal, params }) =>
      service.getLedgerTransaction(principal, params.ledgerTransactionId),
  };
}

import type { EffectiveTimeOptions } from '../accounts/effective-at';
import { isMultiCurrency, unbalancedCurrencies } from '../accounts/ledger-currencies';
import {
  type LedgerTransaction,
  type LedgerTransactionInput,
  ledgerTransactionView,
  readLedgerTransaction,
} from '../accounts/ledger-transaction-record';
import { notFound, owned, ownedBy } from '../accounts/model';
import type { Json } from '../idempotency/fingerprint';
import type {
  CommandContext,
  CommandResponse,
  CommandServiceOptions,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import type { IdempotencyClaim } from '../idempotency/port';
import {
  type LedgerTransactionWrite,
  newLedgerTransactionWrite,
} from '../movements/ledger-transaction';
import { requestOnce, requestRefusal } from '../movements/once';
import { httpActor } from '../movements/posting';
import { MovingService } from '../movements/service';
import { LegsUnbalancedError } from './errors';
import type { LedgerTransactionPort } from './port';

export type LedgerTransactionServiceOptions = CommandServiceOptions & EffectiveTimeOptions;

/**
 * N-leg ledger transactions over HTTP (docs/contract.md §16): each request is ONE transaction,
 * so a first request, its replay and a reused key cost one DynamoDB call each. Refusals in the
 * order of docs/contract.md §16: the schema's 400, then 404, then `legs_unbalanced` per currency
 * (§35; neither recorded), then what the accounts said as the write failed (a leg's currency,
 * closed, funds of the first short leg, the cap), then the paymentId.
 */
export class LedgerTransactionService extends MovingService<
  LedgerTransactionPort,
  LedgerTransactionServiceOptions
> {
  async createLedgerTransaction(
    ctx: CommandContext,
    input: LedgerTransactionInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.createLedgerTransaction,
      pathParameters: {},
      rawBody,
    };
    const unbalanced = unbalancedCurrencies(input);
    if (unbalanced.length > 0) {
      // Nothing is written for a shape error; but a missing or foreign account answers first.
      const accounts = await this.port.getAccounts(input.legs.map((leg) => leg.accountId));
      if (accounts.some((account) => !owned(account, ctx.principal))) {
        return this.commands.refuse(this.commands.key(ctx, request), notFound('Account'));
      }
      throw new LegsUnbalancedError(unbalanced, isMultiCurrency(input));
    }
    return this.commands.planned(
      ctx,
      request,
      () => this.planLedgerTransaction(ctx, input, rawBody),
      async ({ claim, write }) => {
        const result = await this.movements.ledgerTransaction(
          requestOnce(claim, ctx.operationIndex),
          write,
        );
        return this.commands.settle(claim, result, requestRefusal);
      },
    );
  }

  /**
   * A balanced ledger transaction made ready to write: its record, its legs and its claim with
   * the first response rendered. The single route and a batch operation (docs/contract.md §25)
   * share it; an unbalanced one is refused by `createLedgerTransaction` alone, which writes
   * nothing for it.
   */
  planLedgerTransaction(
    ctx: CommandContext,
    input: LedgerTransactionInput,
    rawBody: Json,
  ): { claim: IdempotencyClaim; write: LedgerTransactionWrite } {
    const actor = httpActor(ctx, input.effectiveAt, this.options.backdateLimitDays);
    const write = newLedgerTransactionWrite(input, actor, this.commands.newId);
    const claim = this.commands.claim(ctx, {
      operation: OPERATION_IDS.createLedgerTransaction,
      pathParameters: {},
      rawBody,
      resource: ledgerTransactionView(write.record),
      outcome: 'created',
    });
    return { claim, write };
  }

  async getLedgerTransaction(principal: string, id: string): Promise<LedgerTransaction> {
    const record = await this.port.getLedgerTransaction(id);
    return readLedgerTransaction(ownedBy(record, principal, 'Ledger transaction'));
  }
}

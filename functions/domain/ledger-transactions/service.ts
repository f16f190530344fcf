import { type EffectiveTimeOptions, resolveEffectiveAt } from '../accounts/effective-at';
import { notFound, owned, ownedBy } from '../accounts/model';
import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import { ledgerMovement, newLedgerTransaction } from '../movements/ledger-transaction';
import { explainLegsRejection } from '../movements/legs';
import { LegsUnbalancedError } from '../shared/errors';
import {
  type LedgerTransaction,
  type LedgerTransactionInput,
  ledgerTransactionView,
  readLedgerTransaction,
  sums,
} from './model';
import type { LedgerTransactionPort } from './port';

export type LedgerTransactionServiceOptions = CommandServiceOptions & EffectiveTimeOptions;

/**
 * N-leg ledger transactions over HTTP (docs/contract.md §16): each request is ONE transaction,
 * so a first request, its replay and a reused key cost one DynamoDB call each. Refusals in the
 * order of docs/contract.md §16: the schema's 400, then 404, then `legs_unbalanced` (neither recorded), then
 * what the accounts said as the write failed (currency, closed, funds of the first short leg,
 * the cap), then the paymentId.
 */
export class LedgerTransactionService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: LedgerTransactionPort,
    private readonly options: LedgerTransactionServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
  }

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
    const { debits, credits } = sums(input.legs);
    if (debits !== credits) {
      // Nothing is written for a shape error; but a missing or foreign account answers first.
      const accounts = await this.port.getAccounts(input.legs.map((leg) => leg.accountId));
      if (accounts.some((account) => !owned(account, ctx.principal))) {
        return this.commands.refuse(this.commands.key(ctx, request), notFound('Account'));
      }
      throw new LegsUnbalancedError(debits, credits);
    }
    const effectiveAt = resolveEffectiveAt(
      input.effectiveAt,
      ctx.now,
      this.options.backdateLimitDays,
    );
    const record = newLedgerTransaction(
      input,
      { id: this.commands.newId(), entryId: this.commands.newId },
      { ownerId: ctx.principal, origin: 'http', createdAt: ctx.now.toISOString(), effectiveAt },
    );
    const legs = ledgerMovement(record);
    const claim = this.commands.claim(ctx, {
      ...request,
      resource: ledgerTransactionView(record),
      outcome: 'created',
    });
    const result = await this.port.createLedgerTransaction(claim, { record, legs });
    return this.commands.settle(claim, result, (rejected) => explainLegsRejection(rejected, legs));
  }

  async getLedgerTransaction(principal: string, id: string): Promise<LedgerTransaction> {
    const record = await this.port.getLedgerTransaction(id);
    return readLedgerTransaction(ownedBy(record, principal, 'Ledger transaction'));
  }
}

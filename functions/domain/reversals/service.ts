import { notFound, type OwnedKind, owned } from '../accounts/model';
import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
  type KeyRequest,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import type { IdempotencyClaim } from '../idempotency/port';
import { explainLegsRejection, type MovementLeg } from '../movements/legs';
import {
  type DomainError,
  NotReversibleError,
  ReversalExceedsOriginalError,
  UnavailableError,
} from '../shared/errors';
import { MOVED, retryOptimistic } from '../shared/retry';
import {
  entryReversible,
  ledgerTransactionReversible,
  type Reversal,
  type Reversible,
  reversalLegs,
  transferReversible,
} from './model';
import type { ReversalPort, ReversalRejection } from './port';

export interface ReverseInput {
  /** Entries and transfers only; default: what is left unreversed. */
  readonly amount?: number;
  readonly reference?: string;
}

export type ReversalServiceOptions = CommandServiceOptions;

/**
 * Reversals (docs/contract.md §16): one read of the original, then ONE transaction of the
 * claim, the original's guarded `reversedAmount` and the legs moved back. Refusals: not found
 * (not recorded; the key first, §4), then not_reversible, reversal_exceeds_original, then what
 * the accounts say (closed, funds, cap) — all recorded.
 */
export class ReversalService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: ReversalPort,
    options: ReversalServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
  }

  reverseEntry(
    ctx: CommandContext,
    params: { readonly accountId: string; readonly entryId: string },
    input: ReverseInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = { operation: OPERATION_IDS.reverseEntry, pathParameters: params, rawBody };
    return this.reverse(ctx, request, input, 'Entry', async () => {
      const { account, found } = await this.port.findEntry(params.accountId, params.entryId);
      if (!owned(account, ctx.principal) || !found) return undefined;
      return entryReversible(found.entry, found.pointer);
    });
  }

  reverseTransfer(
    ctx: CommandContext,
    transferId: string,
    input: ReverseInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.reverseTransfer,
      pathParameters: { transferId },
      rawBody,
    };
    return this.reverse(ctx, request, input, 'Transfer', async () => {
      const transfer = owned(await this.port.getTransfer(transferId), ctx.principal);
      return transfer && transferReversible(transfer);
    });
  }

  reverseLedgerTransaction(
    ctx: CommandContext,
    ledgerTransactionId: string,
    input: Omit<ReverseInput, 'amount'>,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = {
      operation: OPERATION_IDS.reverseLedgerTransaction,
      pathParameters: { ledgerTransactionId },
      rawBody,
    };
    return this.reverse(ctx, request, input, 'Ledger transaction', async () => {
      const record = await this.port.getLedgerTransaction(ledgerTransactionId);
      const mine = owned(record, ctx.principal);
      return mine && ledgerTransactionReversible(mine);
    });
  }

  /**
   * Read, decide, write; again from a fresh read when the amount was left to default and
   * another reversal took part of the rest meanwhile (the caller asked for "what is left").
   */
  private reverse(
    ctx: CommandContext,
    request: KeyRequest,
    input: ReverseInput,
    what: OwnedKind,
    read: () => Promise<Reversible | undefined>,
  ): Promise<CommandResponse> {
    return retryOptimistic<CommandResponse>(
      {},
      async () => {
        const original = await read();
        if (!original) return this.commands.refuse(this.commands.key(ctx, request), notFound(what));
        const left = original.amount - original.reversedAmount;
        const amount = original.wholeOnly ? original.amount : (input.amount ?? left);
        const reversal: Reversal = {
          id: this.commands.newId(),
          reversalOf: original.target,
          amount,
          ...(input.reference === undefined ? {} : { reference: input.reference }),
          createdAt: ctx.now.toISOString(),
        };
        const claim = this.commands.claim(ctx, {
          ...request,
          resource: reversal,
          outcome: 'created',
        });
        if (original.refusal) {
          return this.commands.reject(claim, new NotReversibleError(original.refusal));
        }
        if (amount > left || left === 0) {
          return this.commands.reject(claim, new ReversalExceedsOriginalError(left));
        }
        const legs = reversalLegs(original, reversal, ctx.principal, this.commands.newId);
        const write = {
          original: { location: original.location, amount: original.amount, reversing: amount },
          legs,
        };
        const result = await this.port.reverse(claim, write);
        if (result.kind !== 'reversal_rejected') return this.commands.settle(claim, result, never);
        const defaulted = input.amount === undefined && !original.wholeOnly;
        return this.refused(claim, result, legs, original.amount, defaulted);
      },
      () => new UnavailableError(new Error('reversals of one original kept racing')),
    );
  }

  /** A cancelled reversal: 404 first, then the original's guard, then the accounts. */
  private async refused(
    claim: IdempotencyClaim,
    rejected: ReversalRejection,
    legs: readonly MovementLeg[],
    originalAmount: number,
    defaulted: boolean,
  ): Promise<CommandResponse | typeof MOVED> {
    const byAccounts: DomainError | undefined =
      rejected.legs.length > 0
        ? explainLegsRejection({ kind: 'legs_rejected', legs: rejected.legs }, legs)
        : undefined;
    if (byAccounts?.code === 'not_found') return this.commands.reject(claim, byAccounts);
    if (rejected.reversedAmount !== undefined) {
      const left = originalAmount - rejected.reversedAmount;
      if (defaulted && left > 0) return MOVED;
      return this.commands.reject(claim, new ReversalExceedsOriginalError(left));
    }
    if (!byAccounts) throw new Error('a reversal was refused without a reason');
    return this.commands.reject(claim, byAccounts);
  }
}

const never = (): never => {
  throw new Error('a reversal reports its refusals as reversal_rejected');
};

import { notFound, type OwnedKind, owned } from '../accounts/model';
import {
  CreditPendingError,
  NotReversibleError,
  ReversalExceedsOriginalError,
} from '../accounts/reversal-errors';
import {
  entryReversible,
  ledgerTransactionReversible,
  type Reversal,
  type Reversible,
  reversalView,
  transferReversible,
} from '../accounts/reversal-record';
import type { Json } from '../idempotency/fingerprint';
import type {
  CommandContext,
  CommandResponse,
  CommandServiceOptions,
  KeyRequest,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import { requestOnce, requestRefusal } from '../movements/once';
import { reversalLegs } from '../movements/reversal';
import { MovingService } from '../movements/service';
import { UnavailableError } from '../shared/errors';
import { MOVED, retryOptimistic } from '../shared/retry';
import type { ReversalPort } from './port';

export interface ReverseInput {
  /** Entries and transfers only; default: what is left unreversed. */
  readonly amount?: number;
  readonly reference?: string;
}

export type ReversalServiceOptions = CommandServiceOptions;

/**
 * Reversals (docs/contract.md §16): one read of the original, then ONE transaction of the
 * claim, the original's guarded `reversedAmount` and the legs moved back. Refusals: not found
 * and credit_pending (a deferred credit not posted yet, §24: `Retry-After`) — not recorded; the
 * key first, §4 — then not_reversible, reversal_exceeds_original, then what
 * the accounts say (closed, funds, cap) — all recorded.
 */
export class ReversalService extends MovingService<ReversalPort, ReversalServiceOptions> {
  reverseEntry(
    ctx: CommandContext,
    params: { readonly accountId: string; readonly entryId: string },
    input: ReverseInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = { operation: OPERATION_IDS.reverseEntry, pathParameters: params, rawBody };
    return this.reverse(ctx, request, input, 'Entry', async () => {
      const read = await this.port.findEntry(params.accountId, params.entryId);
      if (!owned(read.account, ctx.principal)) return undefined;
      if (read.found) return entryReversible(read.found.entry, read.found.pointer);
      return read.pending ? new CreditPendingError() : undefined;
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
    read: () => Promise<Reversible | CreditPendingError | undefined>,
  ): Promise<CommandResponse> {
    return retryOptimistic<CommandResponse>(
      {},
      async () => {
        const original = await read();
        // Neither recorded: the key first (§4), then not found or a credit not posted yet.
        if (!original || original instanceof CreditPendingError) {
          return this.commands.refuse(this.commands.key(ctx, request), original ?? notFound(what));
        }
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
          resource: reversalView(reversal, original.amounts),
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
        const defaulted = input.amount === undefined && !original.wholeOnly;
        const result = await this.movements.reverse(requestOnce(claim), write, defaulted);
        if (result.kind === 'original_moved') return MOVED;
        return this.commands.settle(claim, result, requestRefusal);
      },
      () => new UnavailableError(new Error('reversals of one original kept racing')),
    );
  }
}

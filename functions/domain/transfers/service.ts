import { type EffectiveTimeOptions, resolveEffectiveAt } from '../accounts/effective-at';
import { explainLegsRejection } from '../accounts/legs';
import { withMetadata } from '../accounts/metadata';
import { ownedBy } from '../accounts/model';
import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import type { DomainError } from '../shared/errors';
import {
  readTransfer,
  type Transfer,
  type TransferRecord,
  type TransferWrite,
  transferLegs,
  transferMovement,
  transferView,
} from './model';
import type { TransferPort, TransferRejection } from './port';

/** What a caller asks for; the service adds the id and the time. */
export type TransferInput = Omit<
  Transfer,
  'id' | 'createdAt' | 'reversedAmount' | 'effectiveAt'
> & {
  readonly effectiveAt?: string;
};

export type TransferServiceOptions = CommandServiceOptions & EffectiveTimeOptions;

/**
 * Why a transfer was refused, judged on the accounts as they stood when the write failed: the
 * rules of every movement (docs/contract.md §16). A destination of another owner is
 * `not_found` over HTTP and `owner_mismatch` for a ledger event (docs/contract.md §10).
 */
export function explainTransferRejection(
  rejected: TransferRejection,
  write: TransferWrite,
  foreignDestination: 'not_found' | 'owner_mismatch' = 'not_found',
): DomainError {
  return explainLegsRejection(rejected, transferMovement(write), foreignDestination);
}

/** Double-entry transfers over HTTP: each request is one transaction (docs/contract.md §10). */
export class TransferService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: TransferPort,
    private readonly options: TransferServiceOptions,
  ) {
    this.commands = new IdempotentCommands(port, options);
  }

  async createTransfer(
    ctx: CommandContext,
    input: TransferInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const transfer: TransferRecord = {
      id: this.commands.newId(),
      fromAccountId: input.fromAccountId,
      toAccountId: input.toAccountId,
      amount: input.amount,
      currency: input.currency,
      reference: input.reference,
      paymentId: input.paymentId,
      ...withMetadata(input.metadata),
      createdAt: ctx.now.toISOString(),
      effectiveAt: resolveEffectiveAt(input.effectiveAt, ctx.now, this.options.backdateLimitDays),
      ownerId: ctx.principal,
      origin: 'http',
    };
    const write: TransferWrite = {
      transfer,
      legs: transferLegs(transfer, { out: this.commands.newId(), in: this.commands.newId() }),
      ownerId: ctx.principal,
    };
    const claim = this.commands.claim(ctx, {
      operation: OPERATION_IDS.createTransfer,
      pathParameters: {},
      rawBody,
      resource: transferView(transfer),
      outcome: 'created',
    });
    const result = await this.port.transfer(claim, write);
    return this.commands.settle(claim, result, (rejected) =>
      explainTransferRejection(rejected, write),
    );
  }

  async getTransfer(principal: string, transferId: string): Promise<Transfer> {
    return readTransfer(ownedBy(await this.port.getTransfer(transferId), principal, 'Transfer'));
  }
}

import { ownedBy } from '../accounts/model';
import type { EntryGuard } from '../accounts/port';
import { explainAccountRejection } from '../accounts/rejections';
import type { Json } from '../idempotency/fingerprint';
import {
  type CommandContext,
  type CommandResponse,
  type CommandServiceOptions,
  IdempotentCommands,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import {
  type DomainError,
  NotFoundError,
  OwnerMismatchError,
  PaymentIdConflictError,
} from '../shared/errors';
import {
  type Transfer,
  type TransferRecord,
  type TransferWrite,
  transferLegs,
  transferView,
} from './model';
import type { TransferPort, TransferRejection } from './port';

/** What a caller asks for; the service adds the id and the time. */
export type TransferInput = Omit<Transfer, 'id' | 'createdAt'>;

export type TransferServiceOptions = CommandServiceOptions;

/** The guards of each side: both the caller's, both in the currency, the source covering it. */
export function transferGuards(write: TransferWrite): Record<'from' | 'to', EntryGuard> {
  const { transfer, ownerId } = write;
  return {
    from: { ownerId, currency: transfer.currency, requireAvailableAtLeast: transfer.amount },
    to: { ownerId, currency: transfer.currency, increaseBy: transfer.amount },
  };
}

/** Which refusal wins when both accounts refused: not found, owners, currency, funds, cap. */
const PRECEDENCE = [
  'not_found',
  'owner_mismatch',
  'currency_mismatch',
  'insufficient_funds',
  'balance_limit_exceeded',
];

/**
 * Why a transfer was refused, judged on the accounts as they stood when the write failed. A
 * destination of another owner is `not_found` over HTTP (the caller must not learn it exists)
 * and `owner_mismatch` for a ledger event (docs/contract.md §10).
 */
export function explainTransferRejection(
  rejected: TransferRejection,
  write: TransferWrite,
  foreignDestination: 'not_found' | 'owner_mismatch' = 'not_found',
): DomainError {
  if (rejected.kind === 'payment_id_taken') return new PaymentIdConflictError();
  const guards = transferGuards(write);
  const errors = rejected.sides.map(({ side, account }) => {
    const foreign = account !== undefined && account.ownerId !== write.ownerId;
    if (side === 'to' && foreign && foreignDestination === 'owner_mismatch') {
      return new OwnerMismatchError();
    }
    return explainAccountRejection(account, guards[side]);
  });
  const rank = (error: DomainError) => {
    const index = PRECEDENCE.indexOf(error.code);
    return index < 0 ? PRECEDENCE.length : index;
  };
  const [first] = errors.sort((a, b) => rank(a) - rank(b));
  return first ?? new NotFoundError('Account not found.');
}

/** Double-entry transfers over HTTP: each request is one transaction (docs/contract.md §10). */
export class TransferService {
  private readonly commands: IdempotentCommands;

  constructor(
    private readonly port: TransferPort,
    options: TransferServiceOptions,
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
      createdAt: ctx.now.toISOString(),
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
    return transferView(ownedBy(await this.port.getTransfer(transferId), principal, 'Transfer'));
  }
}

import type { EffectiveTimeOptions } from '../accounts/effective-at';
import { ownedBy } from '../accounts/model';
import { readTransfer, type Transfer, transferView } from '../accounts/transfer-record';
import type { Json } from '../idempotency/fingerprint';
import type {
  CommandContext,
  CommandResponse,
  CommandServiceOptions,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import type { IdempotencyClaim } from '../idempotency/port';
import { requestOnce, requestRefusal } from '../movements/once';
import { httpActor } from '../movements/posting';
import { MovingService } from '../movements/service';
import { newTransfer, type TransferInput, type TransferWrite } from '../movements/transfer';
import type { TransferPort } from './port';

export type TransferServiceOptions = CommandServiceOptions & EffectiveTimeOptions;

/**
 * Double-entry transfers over HTTP (docs/contract.md §10): the request claim and the transfer
 * command (`domain/movements/`), ONE transaction per request.
 */
export class TransferService extends MovingService<TransferPort, TransferServiceOptions> {
  async createTransfer(
    ctx: CommandContext,
    input: TransferInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = { operation: OPERATION_IDS.createTransfer, pathParameters: {}, rawBody };
    return this.commands.planned(
      ctx,
      request,
      () => this.planTransfer(ctx, input, rawBody),
      async ({ claim, write }) => {
        const result = await this.movements.transfer(requestOnce(claim, ctx.operationIndex), write);
        return this.commands.settle(claim, result, requestRefusal);
      },
    );
  }

  /**
   * A transfer made ready to write: its record, both legs and its claim with the first response
   * rendered. The single route and a batch operation (docs/contract.md §25) share it.
   */
  planTransfer(
    ctx: CommandContext,
    input: TransferInput,
    rawBody: Json,
  ): { claim: IdempotencyClaim; write: TransferWrite } {
    const actor = httpActor(ctx, input.effectiveAt, this.options.backdateLimitDays);
    const write = newTransfer(input, actor, this.commands.newId);
    const claim = this.commands.claim(ctx, {
      operation: OPERATION_IDS.createTransfer,
      pathParameters: {},
      rawBody,
      resource: transferView(write.transfer),
      outcome: 'created',
    });
    return { claim, write };
  }

  async getTransfer(principal: string, transferId: string): Promise<Transfer> {
    return readTransfer(ownedBy(await this.port.getTransfer(transferId), principal, 'Transfer'));
  }
}

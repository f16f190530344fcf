import {
  captureSettlement,
  type Hold,
  type HoldRecord,
  type HoldSettlement,
  type HoldStatus,
  holdStatusAt,
  holdView,
  voidSettlement,
} from '../accounts/hold-record';
import { type Metadata, withMetadata } from '../accounts/metadata';
import { type LedgerEntry, notFound, owned, ownedBy } from '../accounts/model';
import type { Json } from '../idempotency/fingerprint';
import type {
  CommandContext,
  CommandResponse,
  CommandServiceOptions,
  KeyRequest,
} from '../idempotency/idempotent-command';
import { OPERATION_IDS } from '../idempotency/operations';
import type { EntryGuard } from '../movements/guard';
import { requestOnce, requestRefusal } from '../movements/once';
import { explainAccountRejection } from '../movements/rejections';
import { MovingService } from '../movements/service';
import {
  type DomainError,
  HoldExpiredError,
  HoldNotActiveError,
  ValidationError,
} from '../shared/errors';
import type { HoldPage, HoldPort } from './port';

export interface PlaceHoldInput {
  readonly amount: number;
  readonly currency: string;
  readonly expiresInSeconds: number;
  readonly reference?: string;
  readonly metadata?: Metadata;
}

export type HoldServiceOptions = CommandServiceOptions;

/**
 * Why a hold can no longer be captured or voided (docs/contract.md §11): captured or voided →
 * hold_not_active; otherwise at or past its expiry → hold_expired, swept or not.
 */
export function holdRefusal(hold: HoldRecord, now: Date): DomainError | undefined {
  if (hold.status === 'captured' || hold.status === 'voided') return new HoldNotActiveError();
  if (holdStatusAt(hold, now) === 'expired') return new HoldExpiredError();
  return undefined;
}

/** Holds: authorise, then capture, void or let expire (docs/contract.md §11). */
export class HoldService extends MovingService<HoldPort, HoldServiceOptions> {
  async placeHold(
    ctx: CommandContext,
    accountId: string,
    input: PlaceHoldInput,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const at = ctx.now.toISOString();
    const hold: HoldRecord = {
      id: this.commands.newId(),
      accountId,
      ownerId: ctx.principal,
      amount: input.amount,
      currency: input.currency,
      status: 'active',
      capturedAmount: 0,
      expiresAt: new Date(ctx.now.getTime() + input.expiresInSeconds * 1000).toISOString(),
      reference: input.reference,
      ...withMetadata(input.metadata),
      createdAt: at,
      updatedAt: at,
    };
    const claim = this.commands.claim(ctx, {
      operation: OPERATION_IDS.placeHold,
      pathParameters: { accountId },
      rawBody,
      resource: holdView(hold, ctx.now),
      outcome: 'created',
    });
    const guard: EntryGuard = {
      ownerId: ctx.principal,
      currency: input.currency,
      requireOpen: true,
      requireAvailableAtLeast: input.amount,
    };
    const result = await this.port.placeHold(claim, hold, guard);
    return this.commands.settle(claim, result, (rejected) =>
      explainAccountRejection(rejected.account, guard),
    );
  }

  async capture(
    ctx: CommandContext,
    holdId: string,
    amount: number | undefined,
    rawBody: Json,
  ): Promise<CommandResponse> {
    const request = { operation: OPERATION_IDS.captureHold, pathParameters: { holdId }, rawBody };
    const key = this.commands.key(ctx, request);
    const hold = owned(await this.port.getHold(holdId), ctx.principal);
    // Both refusals depend on what is stored, so the key is checked first (docs/contract.md §4).
    if (!hold) return this.commands.refuse(key, notFound('Hold'));
    const captured = amount ?? hold.amount;
    if (captured > hold.amount) {
      const tooLarge = new ValidationError('The capture is larger than the hold.', [
        { path: 'body.amount', message: `must be at most the hold's amount, ${hold.amount}` },
      ]);
      return this.commands.refuse(key, tooLarge);
    }
    const settlement = captureSettlement(hold, captured, ctx.now);
    const entry: LedgerEntry = {
      id: this.commands.newId(),
      accountId: hold.accountId,
      type: 'capture',
      amount: captured,
      currency: hold.currency,
      reference: hold.reference,
      ...withMetadata(hold.metadata),
      holdId: hold.id,
      origin: 'http',
      createdAt: settlement.at,
      effectiveAt: settlement.at,
    };
    return this.settle(ctx, request, hold, settlement, entry);
  }

  async void(ctx: CommandContext, holdId: string, rawBody: Json): Promise<CommandResponse> {
    const request = { operation: OPERATION_IDS.voidHold, pathParameters: { holdId }, rawBody };
    const hold = owned(await this.port.getHold(holdId), ctx.principal);
    if (!hold) return this.commands.refuse(this.commands.key(ctx, request), notFound('Hold'));
    return this.settle(ctx, request, hold, voidSettlement(hold, ctx.now));
  }

  async getHold(principal: string, holdId: string, now: Date): Promise<Hold> {
    return holdView(await this.ownedHold(principal, holdId), now);
  }

  async listHolds(
    principal: string,
    accountId: string,
    query: { status?: HoldStatus; limit: number; cursor?: string },
    now: Date,
  ): Promise<HoldPage> {
    ownedBy(await this.port.getAccount(accountId), principal, 'Account');
    const { status } = query;
    const keep = (hold: HoldRecord) => status === undefined || holdStatusAt(hold, now) === status;
    const page = await this.port.listHolds(accountId, query.limit, query.cursor, keep);
    return { items: page.items.map((hold) => holdView(hold, now)), nextCursor: page.nextCursor };
  }

  /** Capture and void: refused at once when the hold is settled or expired, else one write. */
  private async settle(
    ctx: CommandContext,
    request: KeyRequest,
    hold: HoldRecord,
    settlement: HoldSettlement,
    entry?: LedgerEntry,
  ): Promise<CommandResponse> {
    const claim = this.commands.claim(ctx, {
      ...request,
      resource: holdView(settlement.hold, ctx.now),
      outcome: 'ok',
    });
    // Recorded with one conditional put, so an earlier claim of this key (this very capture,
    // say) still replays instead of being refused.
    const refusal = holdRefusal(hold, ctx.now);
    if (refusal) return this.commands.reject(claim, refusal);
    const result = entry
      ? await this.movements.capture(requestOnce(claim), settlement, entry)
      : await this.port.voidHold(claim, settlement);
    // Settled, expired or re-owned between the read and the write: judged on the hold as it
    // was then (another owner's hold is not found, and that is not recorded).
    return this.commands.settle(claim, result, (rejected) => {
      if (rejected.kind !== 'hold_changed') return requestRefusal(rejected);
      const then = rejected.hold ?? hold;
      if (then.ownerId !== ctx.principal) return notFound('Hold');
      return holdRefusal(then, ctx.now) ?? new HoldNotActiveError();
    });
  }

  private async ownedHold(principal: string, holdId: string): Promise<HoldRecord> {
    return ownedBy(await this.port.getHold(holdId), principal, 'Hold');
  }
}

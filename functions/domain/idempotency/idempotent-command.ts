import {
  type DomainError,
  EffectiveTimeRefused,
  IdempotencyKeyReusedError,
  LedgerRejection,
} from '../shared/errors';
import { epochSeconds } from '../shared/time';
import { idempotencyScopeId, type Json, requestFingerprint } from './fingerprint';
import type { IdempotencyRecord } from './model';
import type { OperationId } from './operations';
import type {
  ClaimKey,
  IdempotencyClaim,
  ResponsePresenter,
  ResponseRecorder,
  SuccessOutcome,
} from './port';

/** Who asks, with which key, and when: everything an idempotent command needs besides input. */
export interface CommandContext {
  readonly principal: string;
  readonly idempotencyKey: string;
  readonly now: Date;
  /**
   * The operation's index in its batch (docs/contract.md §36): its entries list in request order
   * among the batch's, all written at the batch's one time. None for a single request.
   */
  readonly operationIndex?: number;
}

/** A command's answer: the stored first response, or its replay. */
export interface CommandResponse {
  readonly statusCode: number;
  readonly body: string;
  readonly replayed: boolean;
}

/** What a request's key is made of: its operation, path parameters and body. */
export interface KeyRequest {
  readonly operation: OperationId;
  readonly pathParameters: Record<string, string>;
  /** The body as received, before defaults: what the fingerprint covers. */
  readonly rawBody: Json;
}

export interface ClaimRequest extends KeyRequest {
  /** The resource a success answers with, and how it succeeded. */
  readonly resource: unknown;
  readonly outcome: SuccessOutcome;
}

/** What every service of idempotent commands is built with. */
export interface CommandServiceOptions {
  readonly idempotencyRetentionSeconds: number;
  /** Renders the responses idempotency records store (the transport's format). */
  readonly responses: ResponsePresenter;
  /** Ids of the resources commands create. */
  readonly newId: () => string;
}

/** The two results every command write shares; anything else is a rejection to explain. */
export type SettledWrite =
  | { readonly kind: 'committed' }
  | { readonly kind: 'claimed'; readonly record: IdempotencyRecord };

/**
 * The claim → write → replay/reject cycle every idempotent command follows (docs/contract.md
 * §4). A service builds the claim (with its first response already rendered), writes it with
 * the effect in one transaction, and hands the write's result to `settle`.
 */
export class IdempotentCommands {
  private readonly responses: ResponsePresenter;
  private readonly retentionSeconds: number;
  readonly newId: () => string;

  constructor(
    private readonly recorder: ResponseRecorder,
    options: CommandServiceOptions,
  ) {
    this.responses = options.responses;
    this.retentionSeconds = options.idempotencyRetentionSeconds;
    this.newId = options.newId;
  }

  /** The request's key: what `refuse` checks before the claim can be built. */
  key(ctx: CommandContext, request: KeyRequest): ClaimKey {
    return {
      scopeId: idempotencyScopeId(ctx.principal, request.operation, ctx.idempotencyKey),
      fingerprint: requestFingerprint(request.operation, request.pathParameters, request.rawBody),
      nowSeconds: epochSeconds(ctx.now),
    };
  }

  /** The claim a first request writes together with its effect. */
  claim(ctx: CommandContext, request: ClaimRequest): IdempotencyClaim {
    const key = this.key(ctx, request);
    return {
      ...key,
      expiresAt: key.nowSeconds + this.retentionSeconds,
      response: this.responses.success(request.resource, request.outcome),
    };
  }

  /**
   * A refusal that is never recorded (`400`, `404`) but follows from stored state — a hold's
   * amount, a resource of someone else. Idempotency comes first (docs/contract.md §4): a live
   * record of the key replays, or answers `idempotency_key_reused` for another request. Only an
   * unused key gets `error`, thrown, so a corrected retry with the key goes ahead.
   */
  async refuse(key: ClaimKey, error: DomainError): Promise<CommandResponse> {
    const record = await this.recorder.findRecord(key);
    if (record) return replayOrReject(key, record);
    throw error;
  }

  /**
   * Plans a command whose checks read the clock (an `effectiveAt` within `backdateLimitDays`),
   * then runs it. Such a check is judged on the first attempt only (docs/contract.md §31): when
   * it refuses, a live record of the key replays (or refuses a reused key) before the refusal.
   */
  async planned<T>(
    ctx: CommandContext,
    request: KeyRequest,
    plan: () => T,
    run: (planned: T) => Promise<CommandResponse>,
  ): Promise<CommandResponse> {
    let planned: T;
    try {
      planned = plan();
    } catch (error) {
      if (error instanceof EffectiveTimeRefused) return this.refuse(this.key(ctx, request), error);
      throw error;
    }
    return run(planned);
  }

  /** Whether a live record holds the request's key (whatever request it was). */
  async stored(ctx: CommandContext, request: KeyRequest): Promise<boolean> {
    return (await this.recorder.findRecord(this.key(ctx, request))) !== undefined;
  }

  /**
   * The stored answer of a key when a live record holds it: its replay, or
   * `idempotency_key_reused` (thrown) for another request; undefined when the key is free. A
   * command whose effect spans several writes (a batch, docs/contract.md §25) asks first.
   */
  async replayed(key: ClaimKey): Promise<CommandResponse | undefined> {
    const record = await this.recorder.findRecord(key);
    return record ? replayOrReject(key, record) : undefined;
  }

  /**
   * Committed → the first response; claimed → replay (or refuse a reused key); anything else is
   * explained as a DomainError by the caller and rejected.
   */
  async settle<R extends { readonly kind: string }>(
    claim: IdempotencyClaim,
    result: SettledWrite | R,
    explain: (rejected: R) => DomainError,
  ): Promise<CommandResponse> {
    if (!isSettled(result)) return this.reject(claim, explain(result));
    if (result.kind === 'claimed') return replayOrReject(claim, result.record);
    return { ...claim.response, replayed: false };
  }

  /**
   * A LedgerRejection is stored so that retries replay it; if a claim committed meanwhile, that
   * claim's answer wins. Any other error is thrown and nothing is recorded.
   */
  async reject(claim: IdempotencyClaim, error: DomainError): Promise<CommandResponse> {
    if (!(error instanceof LedgerRejection)) throw error;
    return this.answer({ ...claim, response: this.responses.rejection(error) });
  }

  /**
   * A command whose answer needs no effect besides its record (a rejection, or closing an
   * account already closed): one conditional put of the claim; a claim committed meanwhile wins.
   */
  async answer(claim: IdempotencyClaim): Promise<CommandResponse> {
    const recorded = await this.recorder.recordResponse(claim);
    if (recorded.kind === 'claimed') return replayOrReject(claim, recorded.record);
    return { ...claim.response, replayed: false };
  }
}

function isSettled(result: { readonly kind: string }): result is SettledWrite {
  return result.kind === 'committed' || result.kind === 'claimed';
}

/** An existing claim replays when it is the same request, and refuses the key otherwise. */
function replayOrReject(claim: ClaimKey, record: IdempotencyRecord): CommandResponse {
  if (record.fingerprint !== claim.fingerprint) throw new IdempotencyKeyReusedError();
  return { statusCode: record.statusCode, body: record.body, replayed: true };
}

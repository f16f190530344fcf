import { type AppError, IdempotencyKeyReusedError } from './errors';
import { idempotencyScopeId, type Json, requestFingerprint } from './fingerprint';
import type { IdempotencyRecord } from './model';
import type { IdempotencyClaim, RecordResult } from './ports';
import { toProblem } from './problem';

/** Who asks, with which key, and when: everything an idempotent command needs besides input. */
export interface CommandContext {
  readonly principal: string;
  readonly idempotencyKey: string;
  readonly now: Date;
}

/** A command's HTTP-shaped answer: the first response, or its replay. */
export interface CommandResponse {
  readonly statusCode: number;
  readonly body: string;
  readonly replayed: boolean;
}

export interface ClaimRequest {
  readonly operation: string;
  readonly pathParameters: Record<string, string>;
  /** The body as received, before defaults: what the fingerprint covers. */
  readonly rawBody: Json;
  readonly statusCode: number;
  readonly responseBody: unknown;
  readonly retentionSeconds: number;
}

/** The claim a first request writes together with its effect. */
export function buildClaim(ctx: CommandContext, request: ClaimRequest): IdempotencyClaim {
  const nowSeconds = Math.floor(ctx.now.getTime() / 1000);
  return {
    scopeId: idempotencyScopeId(ctx.principal, request.operation, ctx.idempotencyKey),
    fingerprint: requestFingerprint(request.operation, request.pathParameters, request.rawBody),
    nowSeconds,
    expiresAt: nowSeconds + request.retentionSeconds,
    response: { statusCode: request.statusCode, body: JSON.stringify(request.responseBody) },
  };
}

export const firstResponse = (claim: IdempotencyClaim): CommandResponse => ({
  ...claim.response,
  replayed: false,
});

/** An existing claim replays when it is the same request, and refuses the key otherwise. */
export function replayOrReject(
  claim: IdempotencyClaim,
  record: Pick<IdempotencyRecord, 'fingerprint' | 'statusCode' | 'body'>,
): CommandResponse {
  if (record.fingerprint !== claim.fingerprint) throw new IdempotencyKeyReusedError();
  return { statusCode: record.statusCode, body: record.body, replayed: true };
}

/**
 * Stores a rejection that reached the ledger so that retries replay it; if a claim committed
 * meanwhile, that claim's answer wins.
 */
export async function recordRejection(
  port: { recordResponse(claim: IdempotencyClaim): Promise<RecordResult> },
  claim: IdempotencyClaim,
  error: AppError,
): Promise<CommandResponse> {
  const problem = toProblem(error);
  const rejection = { ...claim, response: { statusCode: problem.status, body: problem.body } };
  const recorded = await port.recordResponse(rejection);
  if (recorded.kind === 'claimed') return replayOrReject(claim, recorded.record);
  return firstResponse(rejection);
}

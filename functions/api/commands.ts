import type { Json } from '../domain/idempotency/fingerprint';
import type { CommandContext, CommandResponse } from '../domain/idempotency/idempotent-command';
import { parseIdempotencyKey } from '../domain/idempotency/key';
import { principalOf } from './principal';
import { header, readJsonBody } from './request';
import { rawJson } from './respond';
import type { RouteRequest } from './router';
import type { HttpResult } from './types';

/** Everything an idempotent POST needs, checked in contract order: 401, key, 413/415/400. */
export function commandInput(
  request: RouteRequest,
  now: Date,
): { ctx: CommandContext; body: Json } {
  const principal = principalOf(request.event);
  const idempotencyKey = parseIdempotencyKey(header(request.event, 'idempotency-key'));
  const body = readJsonBody(request.event);
  return { ctx: { principal, idempotencyKey, now }, body };
}

/** First responses and replays leave through here, the replay marked as such. */
export function commandResult(response: CommandResponse): HttpResult {
  return rawJson(response.statusCode, response.body, response.replayed);
}

import { CALLBACK_PATH_PREFIX } from '../../contract/names';
import { assertWebhookIdMatches, verifyCallback } from '../../domain/callbacks/authentication';
import type { CallbackSecrets } from '../../domain/callbacks/port';
import type { CallbackOutcome, CallbackService } from '../../domain/callbacks/service';
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../../domain/callbacks/standard-webhooks';
import { eventContentHash, type Json } from '../../domain/idempotency/fingerprint';
import { InvalidCallbackError } from '../../domain/shared/errors';
import type { Log } from '../../domain/shared/log';
import { METRICS, type MetricName, type MetricsPort } from '../../domain/shared/metrics';
import { epochSeconds } from '../../domain/shared/time';
import { CallbackEventSchema, CallbackPath } from '../../schemas/exports/callbacks';
import {
  fieldErrors,
  header,
  readRawBody,
  requireJsonMediaType,
  requireWellFormedUnicode,
} from '../request';
import { json } from '../respond';
import type { RouteHandlers, RouteRequest } from '../router';
import type { CALLBACK_ROUTES } from './spec';

const OUTCOME_METRIC: Record<CallbackOutcome, MetricName> = {
  applied: METRICS.callbackApplied,
  duplicate: METRICS.callbackDuplicate,
  stale: METRICS.callbackStale,
  superseded: METRICS.callbackSuperseded,
};

/** The path an application's signed callbacks are posted to (handed to export workers). */
export function callbackPath(applicationId: string): string {
  return `${CALLBACK_PATH_PREFIX}${encodeURIComponent(applicationId)}`;
}

/**
 * Signed execution callbacks (docs/contract.md §7): the signature over the raw body is checked
 * before anything is parsed, so a rejected callback changes nothing.
 */
export function callbackHandlers(
  service: CallbackService,
  secrets: CallbackSecrets,
  clock: () => Date,
  log: Log,
  metrics: MetricsPort,
): RouteHandlers<typeof CALLBACK_ROUTES> {
  return {
    postCallback: async (request) => {
      const now = clock();
      const { applicationId, rawBody, webhookId } = await authenticate(request, secrets, now);
      requireJsonMediaType(request.event);
      const event = parseCallback(rawBody, applicationId);
      assertWebhookIdMatches(webhookId, event.id);
      const result = await service.apply(
        {
          applicationId,
          id: event.id,
          executionId: event.executionid,
          sequence: event.sequence,
          taskId: event.taskid,
          status: event.data.status,
          progress: event.data.progress,
          result: event.data.result,
          contentHash: eventContentHash(event as Record<string, Json>),
        },
        now,
      );
      const fields = {
        applicationId,
        callbackId: event.id,
        executionId: event.executionid,
        taskId: result.taskId,
        sequence: event.sequence,
        outcome: result.outcome,
      };
      metrics.count(OUTCOME_METRIC[result.outcome]);
      if (result.sequence.newGaps.length > 0) {
        metrics.count(METRICS.sequenceGap, result.sequence.newGaps.length);
        log.warn('sequence gap', { ...fields, missing: result.sequence.newGaps });
      }
      log.info('callback', fields);
      return json(200, { outcome: result.outcome });
    },
  };
}

/** The size check (413), then the signature over the raw bytes, before anything is parsed. */
async function authenticate(request: RouteRequest, secrets: CallbackSecrets, now: Date) {
  const rawBody = readRawBody(request.event);
  const app = CallbackPath.shape.applicationId.safeParse(request.pathParameters.applicationId);
  // Either header set (docs/contract.md §7); secrets and whpk_ keys come as one list.
  const { webhookId } = verifyCallback({
    headers: {
      callbackSignature: header(request.event, 'callback-signature'),
      id: header(request.event, WEBHOOK_ID_HEADER),
      timestamp: header(request.event, WEBHOOK_TIMESTAMP_HEADER),
      signature: header(request.event, WEBHOOK_SIGNATURE_HEADER),
    },
    rawBody,
    keys: app.success ? await secrets.secretsFor(app.data) : [],
    nowSeconds: epochSeconds(now),
  });
  return { applicationId: app.data ?? '', rawBody, webhookId };
}

function parseCallback(rawBody: Buffer, applicationId: string) {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new InvalidCallbackError('The callback body is not JSON.');
  }
  requireWellFormedUnicode(value);
  const parsed = CallbackEventSchema.safeParse(value);
  if (!parsed.success) {
    throw new InvalidCallbackError(
      'The callback is not a valid CloudEvent for an execution.',
      fieldErrors(parsed.error, 'body'),
    );
  }
  if (parsed.data.applicationid !== undefined && parsed.data.applicationid !== applicationId) {
    throw new InvalidCallbackError('applicationid differs from the path.', [
      { path: 'body.applicationid', message: 'must equal the applicationId in the path' },
    ]);
  }
  return parsed.data;
}

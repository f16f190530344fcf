import { randomUUID } from 'node:crypto';
import { signCallback } from '../../functions/domain/callbacks/signature';
import { epochSeconds } from '../../functions/domain/shared/time';
import { type EventOptions, httpEvent } from '../../kit/http-event';

export const APP = 'export-worker';
export const SECRET = 'test-secret-0123456789';
export const NEXT_SECRET = 'test-secret-rotated-9876543210';

export interface CallbackSpec {
  executionId: string;
  taskId?: string;
  sequence: number | string;
  status?: string;
  progress?: number;
  id?: string;
  applicationid?: string;
  /** `data.result` of a SUCCEEDED export callback (docs/contract.md §12). */
  result?: { key: string; rows: number; bytes: number; sha256: string };
}

/** A valid `data.result` for an execution's CSV (the key the service chose for it). */
export function csvResult(taskId: string, executionId: string) {
  return {
    key: `exports/${taskId}/${executionId}.csv`,
    rows: 1,
    bytes: 10,
    sha256: 'a'.repeat(64),
  };
}

/** A CloudEvents callback body as a worker sends it (docs/contract.md §7). */
export function callbackBody(spec: CallbackSpec): string {
  return JSON.stringify({
    specversion: '1.0',
    id: spec.id ?? randomUUID(),
    source: 'urn:worker:export',
    type: 'export.execution.progress',
    sequence: spec.sequence,
    executionid: spec.executionId,
    ...(spec.taskId ? { taskid: spec.taskId } : {}),
    ...(spec.applicationid ? { applicationid: spec.applicationid } : {}),
    data: {
      ...(spec.status ? { status: spec.status } : {}),
      ...(spec.progress === undefined ? {} : { progress: spec.progress }),
      ...(spec.result ? { result: spec.result } : {}),
    },
  });
}

/** A signed POST /v1/callbacks/{app} event; `header` overrides the computed signature. */
export function signedCallback(
  body: string,
  options: { secrets?: string[]; timestamp?: number; header?: string; app?: string } = {},
) {
  const timestamp = options.timestamp ?? epochSeconds();
  const header =
    options.header ?? signCallback(options.secrets ?? [SECRET], timestamp, Buffer.from(body));
  const eventOptions: EventOptions = {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'callback-signature': header },
  };
  return httpEvent('POST', `/v1/callbacks/${options.app ?? APP}`, eventOptions);
}

/** A POST /v1/callbacks/{app} event with Standard Webhooks headers (`headers` overrides). */
export function webhookCallback(
  body: string,
  options: { id: string; signature: string; timestamp: number; app?: string },
) {
  return httpEvent('POST', `/v1/callbacks/${options.app ?? APP}`, {
    rawBody: body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': options.id,
      'webhook-timestamp': String(options.timestamp),
      'webhook-signature': options.signature,
    },
  });
}

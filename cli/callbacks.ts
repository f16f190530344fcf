import { type KeyObject, randomUUID } from 'node:crypto';
import type { LedgerClient, operations } from '../client/index';
import { signCallback } from '../functions/domain/callbacks/signature';
import {
  signStandardWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../functions/domain/callbacks/standard-webhooks';
import { messageOf } from '../functions/domain/shared/log';
import { epochSeconds } from '../functions/domain/shared/time';
import { CliError } from './errors';

/** docs/contract.md §7: what a worker reports about one execution. */
export interface CallbackSpec {
  readonly applicationId: string;
  readonly executionId: string;
  readonly taskId?: string;
  readonly sequence: number;
  readonly status?: string;
  readonly progress?: number;
  /** The event id; a fresh UUID when omitted (the same id again is a `duplicate`). */
  readonly id?: string;
}

const CALLBACK_SOURCE = 'urn:idempotent-ledger:cli';
const CALLBACK_TYPE = 'export.execution.progress';

/** A CloudEvent serialised once: the signature covers these exact bytes. */
export interface CallbackEvent {
  readonly id: string;
  readonly body: string;
}

/** The CloudEvents 1.0 body of docs/contract.md §7 and its id. */
export function callbackEvent(spec: CallbackSpec, now: Date = new Date()): CallbackEvent {
  const id = spec.id ?? randomUUID();
  // JSON leaves out the fields that are undefined.
  const body = JSON.stringify({
    specversion: '1.0',
    id,
    source: CALLBACK_SOURCE,
    type: CALLBACK_TYPE,
    time: now.toISOString(),
    sequence: spec.sequence,
    applicationid: spec.applicationId,
    executionid: spec.executionId,
    taskid: spec.taskId,
    data: {
      status: spec.status,
      progress: spec.progress,
    },
  });
  return { id, body };
}

/** The two header sets the callback route accepts (docs/contract.md §7). */
export const CALLBACK_SCHEMES = ['callback-signature', 'standard-webhooks'] as const;
export type CallbackScheme = (typeof CALLBACK_SCHEMES)[number];

/**
 * How a sender signs: `Callback-Signature` (`t=,v1=` hex HMAC) or Standard Webhooks
 * (`webhook-id` = the CloudEvent id, `webhook-signature` with one `v1` per secret and one `v1a`
 * per ed25519 signing key). Several secrets or keys sign at once during a rotation.
 */
export interface CallbackSigner {
  readonly scheme: CallbackScheme;
  readonly secrets: readonly string[];
  /** ed25519 keys (`whsk_`); Standard Webhooks only. */
  readonly signingKeys: readonly KeyObject[];
}

/** The callback route's header parameters, as the OpenAPI document declares them. */
export type CallbackHeaders = NonNullable<operations['postCallback']['parameters']['header']>;

/** The signature headers of one event at `nowSeconds`. */
export function signatureHeaders(
  signer: CallbackSigner,
  event: CallbackEvent,
  nowSeconds: number = epochSeconds(),
): CallbackHeaders {
  const rawBody = Buffer.from(event.body, 'utf8');
  if (signer.scheme === 'callback-signature') {
    return { 'Callback-Signature': signCallback(signer.secrets, nowSeconds, rawBody) };
  }
  return {
    [WEBHOOK_ID_HEADER]: event.id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(nowSeconds),
    [WEBHOOK_SIGNATURE_HEADER]: signStandardWebhook({
      id: event.id,
      timestamp: nowSeconds,
      rawBody,
      secrets: signer.secrets,
      signingKeys: signer.signingKeys,
    }),
  };
}

/** A short name of the header set for output lines. */
export function schemeLabel(signer: CallbackSigner): string {
  if (signer.scheme === 'callback-signature') return 'Callback-Signature';
  const kinds = [
    ...(signer.secrets.length > 0 ? ['v1'] : []),
    ...(signer.signingKeys.length > 0 ? ['v1a'] : []),
  ];
  return `Standard Webhooks ${kinds.join('+')}`;
}

export interface CallbackResponse {
  readonly status: number;
  readonly text: string;
  /** `outcome` of a 200 answer (applied, duplicate, stale, superseded). */
  readonly outcome: string | undefined;
}

/** Signs the event and POSTs its exact bytes to /v1/callbacks/{applicationId} with the typed client. */
export async function postCallback(input: {
  readonly client: LedgerClient;
  readonly apiUrl: string;
  readonly applicationId: string;
  readonly event: CallbackEvent;
  readonly signer: CallbackSigner;
  readonly now?: Date;
  readonly signal?: AbortSignal;
}): Promise<CallbackResponse> {
  const nowSeconds = epochSeconds(input.now);
  const { body } = input.event;
  const { data, error, response } = await reach(
    input.apiUrl,
    input.client.POST('/v1/callbacks/{applicationId}', {
      params: {
        path: { applicationId: input.applicationId },
        header: signatureHeaders(input.signer, input.event, nowSeconds),
      },
      body: JSON.parse(body),
      // The signed bytes go out unchanged.
      bodySerializer: () => body,
      ...(input.signal ? { signal: input.signal } : {}),
    }),
    input.signal,
  );
  const text = data === undefined ? answerText(error) : JSON.stringify(data);
  return { status: response.status, text, outcome: data?.outcome };
}

/** An error answer as text: the problem's JSON, or the body when it was not JSON. */
export function answerText(error: unknown): string {
  return typeof error === 'string' ? error : JSON.stringify(error ?? '');
}

/** Awaits a call of the typed client; a request that never reached the server is a CliError. */
export async function reach<T>(apiUrl: string, call: Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw unreachable(apiUrl, error);
  }
}

/** A fetch that never reached the server: say where it tried and what to check. */
export function unreachable(apiUrl: string, error: unknown): CliError {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  const reason = cause || messageOf(error);
  return new CliError(
    `cannot reach the HTTP API at ${apiUrl} (${reason}). Is \`npm start\` running? ` +
      'Set PORT or pass --url if it is not on the default port.',
  );
}

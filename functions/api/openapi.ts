import * as z from 'zod';
import { RESULT_URL_TTL_SECONDS } from '../contract/exports';
import { APPLICATION_ID_PATTERN_SOURCE } from '../contract/names';
import { SIGNATURE_TOLERANCE_SECONDS } from '../domain/callbacks/signature';
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../domain/callbacks/standard-webhooks';
import { HOLD_STATUSES } from '../domain/holds/model';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency/key';
import {
  Account,
  CreateAccountBody,
  EventSourceList,
  PostTransactionBody,
  Transaction,
  TransactionPage,
} from '../schemas/accounts';
import { CallbackEventSchema } from '../schemas/callbacks';
import { CreateExportBody, ExportResult, RerunBody, Task } from '../schemas/exports';
import { CaptureHoldBody, Hold, HoldPage, PlaceHoldBody, VoidHoldBody } from '../schemas/holds';
import { Problem } from '../schemas/shared';
import { CreateTransferBody, Transfer } from '../schemas/transfers';

export interface PublishedRetention {
  readonly idempotencyRetentionSeconds: number;
  readonly inboxRetentionSeconds: number;
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  return rest;
};

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const json = (description: string, ref: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const idempotencyKeyHeader = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description:
    `Bare token or RFC 8941 string, 1–${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII. ` +
    'Scoped to (principal, operation, key).',
  // Two more for the quotes of the RFC 8941 form.
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH + 2 },
};

/** The callback route's signature headers: either set may be sent, so none is required. */
const callbackHeader = (name: string, description: string) => ({
  name,
  in: 'header',
  required: false,
  description,
  schema: { type: 'string' },
});

const accountIdParam = {
  name: 'accountId',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};

const taskIdParam = {
  name: 'taskId',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};

const uuidParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
});

const jsonBody = (ref: string) => ({
  required: true,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const pageQuery = [
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
  { name: 'cursor', in: 'query', schema: { type: 'string' } },
];

const replayedHeader = {
  'Idempotent-Replayed': {
    description: 'Present and `true` when this is the replay of the first response.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const commonErrors = {
  '400': problem('validation_failed, idempotency_key_missing or idempotency_key_invalid'),
  '401': problem('unauthenticated'),
  '404': problem('not_found: unknown or owned by another principal'),
  '413': problem('payload_too_large'),
  '415': problem('unsupported_media_type'),
  '422': problem('idempotency_key_reused'),
  '500': problem('internal'),
  '503': problem('unavailable (has Retry-After)'),
};

/**
 * The OpenAPI 3.1 document. Schemas are generated from the same zod schemas that validate
 * requests, and the retention values come from the running configuration, so the published
 * contract and the enforced TTL cannot drift apart.
 */
/**
 * What API Gateway answers by itself never reaches the service, so it is not problem+json
 * (docs/contract.md §3); clients must not expect a `code` on those.
 */
export const GATEWAY_ANSWERS_NOTE =
  'Errors the service answers are application/problem+json. Answers API Gateway gives by ' +
  'itself before the service runs are not: 401/403 from the JWT or IAM authorizer, 429 when ' +
  'throttled, 413 for a request over its payload limit, and its own 404/5xx ' +
  '(a body such as {"message":"Unauthorized"}); treat those by status alone.';

export function buildOpenApiDocument(retention: PublishedRetention) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'idempotent-ledger',
      version: '1.0.0',
      description:
        'Exactly-once money movements: every POST is guarded by an Idempotency-Key. ' +
        'The full contract (codes, idempotency rules, events, callbacks) is docs/contract.md ' +
        "in the service's repository. " +
        GATEWAY_ANSWERS_NOTE,
      'x-idempotency-retention-seconds': retention.idempotencyRetentionSeconds,
      'x-inbox-retention-seconds': retention.inboxRetentionSeconds,
    },
    security: [{ principal: [] }],
    paths: {
      '/v1/accounts': {
        post: {
          operationId: 'createAccount',
          parameters: [idempotencyKeyHeader],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/CreateAccount' } },
            },
          },
          responses: {
            '201': {
              ...json('Account created (or its replay)', 'Account'),
              headers: replayedHeader,
            },
            ...commonErrors,
            '409': problem('idempotency_key_in_use (has Retry-After)'),
          },
        },
      },
      '/v1/accounts/{accountId}': {
        get: {
          operationId: 'getAccount',
          parameters: [accountIdParam],
          responses: {
            '200': json('The account', 'Account'),
            ...pick(commonErrors, '400', '401', '404', '500', '503'),
          },
        },
      },
      '/v1/accounts/{accountId}/transactions': {
        post: {
          operationId: 'postTransaction',
          parameters: [accountIdParam, idempotencyKeyHeader],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/PostTransaction' } },
            },
          },
          responses: {
            '201': {
              ...json('Transaction posted (or its replay)', 'Transaction'),
              headers: replayedHeader,
            },
            ...commonErrors,
            '409': problem('insufficient_funds, payment_id_conflict or idempotency_key_in_use'),
            '422': problem('idempotency_key_reused, currency_mismatch or balance_limit_exceeded'),
          },
        },
        get: {
          operationId: 'listTransactions',
          parameters: [accountIdParam, ...pageQuery],
          responses: {
            '200': json('Newest first, HTTP and event entries alike', 'TransactionPage'),
            ...pick(commonErrors, '400', '401', '404', '500', '503'),
          },
        },
      },
      '/v1/accounts/{accountId}/event-sources': {
        get: {
          operationId: 'listEventSources',
          description:
            'Sequence tracking per event source: the highest sequence seen and the missing numbers ' +
            '(at most 1,000, the lowest; gapsTruncated when more are missing).',
          parameters: [accountIdParam],
          responses: {
            '200': json('Event sources of this account', 'EventSourceList'),
            ...pick(commonErrors, '400', '401', '404', '500', '503'),
          },
        },
      },
      '/v1/accounts/{accountId}/exports': {
        post: {
          operationId: 'createExport',
          description:
            'Debits the export fee and creates the task, its first execution and the export job ' +
            'in one transaction.',
          parameters: [accountIdParam, idempotencyKeyHeader],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/CreateExport' } },
            },
          },
          responses: {
            '202': { ...json('Task created (or its replay)', 'Task'), headers: replayedHeader },
            ...commonErrors,
            '409': problem('insufficient_funds (for the fee) or idempotency_key_in_use'),
          },
        },
      },
      '/v1/transfers': {
        post: {
          operationId: 'createTransfer',
          description:
            'Moves money between two accounts of the caller in ONE transaction: the debit of the ' +
            "source (guarded on its available balance), the credit of the destination, one entry in each account's listing " +
            '(transfer_out / transfer_in) and the transfer record.',
          parameters: [idempotencyKeyHeader],
          requestBody: jsonBody('CreateTransfer'),
          responses: {
            '201': {
              ...json('Transfer made (or its replay)', 'Transfer'),
              headers: replayedHeader,
            },
            ...commonErrors,
            '400': problem('validation_failed (including fromAccountId == toAccountId), …'),
            '404': problem('not_found: either account unknown or owned by another principal'),
            '409': problem('insufficient_funds, payment_id_conflict or idempotency_key_in_use'),
            '422': problem('idempotency_key_reused or currency_mismatch'),
          },
        },
      },
      '/v1/transfers/{transferId}': {
        get: {
          operationId: 'getTransfer',
          parameters: [uuidParam('transferId')],
          responses: {
            '200': json('The transfer', 'Transfer'),
            ...pick(commonErrors, '400', '401', '404', '500', '503'),
          },
        },
      },
      '/v1/accounts/{accountId}/holds': {
        post: {
          operationId: 'placeHold',
          description:
            "Reserves an amount: the account's available balance drops, its balance does not. " +
            'The hold expires after expiresInSeconds unless captured or voided first.',
          parameters: [accountIdParam, idempotencyKeyHeader],
          requestBody: jsonBody('PlaceHold'),
          responses: {
            '201': { ...json('Hold placed (or its replay)', 'Hold'), headers: replayedHeader },
            ...commonErrors,
            '409': problem('insufficient_funds (available) or idempotency_key_in_use'),
            '422': problem('idempotency_key_reused or currency_mismatch'),
          },
        },
        get: {
          operationId: 'listHolds',
          parameters: [
            accountIdParam,
            {
              name: 'status',
              in: 'query',
              schema: { type: 'string', enum: [...HOLD_STATUSES] },
            },
            ...pageQuery,
          ],
          responses: {
            '200': json('Newest first; status as of now (expired from expiresAt on)', 'HoldPage'),
            ...pick(commonErrors, '400', '401', '404', '500', '503'),
          },
        },
      },
      '/v1/holds/{holdId}': {
        get: {
          operationId: 'getHold',
          parameters: [uuidParam('holdId')],
          responses: {
            '200': json('The hold; status expired from expiresAt on, swept or not', 'Hold'),
            ...pick(commonErrors, '400', '401', '404', '500', '503'),
          },
        },
      },
      '/v1/holds/{holdId}/captures': {
        post: {
          operationId: 'captureHold',
          description:
            'Captures amount (default: all) of an active hold: it leaves the balance (entry type ' +
            'capture), the rest returns to available, in one transaction. At most once per hold.',
          parameters: [uuidParam('holdId'), idempotencyKeyHeader],
          requestBody: jsonBody('CaptureHold'),
          responses: {
            '200': { ...json('Hold captured (or the replay)', 'Hold'), headers: replayedHeader },
            ...commonErrors,
            '400': problem('validation_failed (including an amount above the hold), …'),
            '409': problem('hold_not_active, hold_expired or idempotency_key_in_use'),
          },
        },
      },
      '/v1/holds/{holdId}/voids': {
        post: {
          operationId: 'voidHold',
          description: 'Voids an active hold: its amount returns to available. At most once.',
          parameters: [uuidParam('holdId'), idempotencyKeyHeader],
          requestBody: jsonBody('VoidHold'),
          responses: {
            '200': { ...json('Hold voided (or the replay)', 'Hold'), headers: replayedHeader },
            ...commonErrors,
            '409': problem('hold_not_active, hold_expired or idempotency_key_in_use'),
          },
        },
      },
      '/v1/tasks/{taskId}': {
        get: {
          operationId: 'getTask',
          parameters: [taskIdParam],
          responses: {
            '200': json('The task with its executions', 'Task'),
            ...pick(commonErrors, '400', '401', '404', '500', '503'),
          },
        },
      },
      '/v1/tasks/{taskId}/result': {
        get: {
          operationId: 'getTaskResult',
          description:
            "The current execution's export file: format, rows (the CSV header excluded), bytes, " +
            `lowercase hex SHA-256 and a presigned GET valid ${RESULT_URL_TTL_SECONDS / 60} minutes.`,
          parameters: [taskIdParam],
          responses: {
            '200': json('The result of the SUCCEEDED current execution', 'ExportResult'),
            ...pick(commonErrors, '400', '401', '404', '500', '503'),
            '409': problem('task_not_succeeded: the current execution has not SUCCEEDED'),
            '410': problem('result_expired: older than EXPORT_RETENTION_DAYS or gone'),
          },
        },
      },
      '/v1/tasks/{taskId}/reruns': {
        post: {
          operationId: 'rerunTask',
          parameters: [taskIdParam, idempotencyKeyHeader],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Rerun' } } },
          },
          responses: {
            '202': {
              ...json('A new current execution (or the replay)', 'Task'),
              headers: replayedHeader,
            },
            ...commonErrors,
            '409': problem(
              'task_not_terminal, rerun_limit_reached (MAX_RERUNS_PER_TASK) or idempotency_key_in_use',
            ),
          },
        },
      },
      '/v1/callbacks/{applicationId}': {
        post: {
          operationId: 'postCallback',
          security: [],
          description:
            'Signed execution callbacks, with either header set (one valid set suffices). ' +
            '`Callback-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, ' +
            'or Standard Webhooks: `webhook-id` (must equal the CloudEvent `id`), ' +
            '`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256> v1a,<base64 ' +
            'ed25519>` over "<id>.<timestamp>.<raw body>". Several signatures allowed during ' +
            `rotation; ±${SIGNATURE_TOLERANCE_SECONDS} s window. A \`whsec_\` secret signs with its base64-decoded bytes.`,
          parameters: [
            {
              name: 'applicationId',
              in: 'path',
              required: true,
              schema: { type: 'string', pattern: APPLICATION_ID_PATTERN_SOURCE },
            },
            callbackHeader('Callback-Signature', 't=<unix seconds>,v1=<hex>[,v1=<hex>…]'),
            callbackHeader(WEBHOOK_ID_HEADER, 'Standard Webhooks message id: the CloudEvent id'),
            callbackHeader(WEBHOOK_TIMESTAMP_HEADER, 'Standard Webhooks: unix seconds'),
            callbackHeader(
              WEBHOOK_SIGNATURE_HEADER,
              'Standard Webhooks: space-separated `v1,<base64>` / `v1a,<base64>` entries',
            ),
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/CallbackEvent' } },
            },
          },
          responses: {
            '200': json('applied | duplicate | stale | superseded', 'CallbackOutcome'),
            '400': problem('invalid_callback (incl. webhook-id differing from the CloudEvent id)'),
            '401': problem('invalid_signature or signature_expired'),
            '413': problem('payload_too_large'),
            '415': problem('unsupported_media_type'),
            '500': problem('internal'),
            '503': problem('unavailable (has Retry-After)'),
          },
        },
      },
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          security: [],
          responses: {
            '200': {
              description: 'This document',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        principal: {
          type: 'http',
          scheme: 'bearer',
          description:
            'JWT (sub claim) or AWS SigV4 (IAM caller ARN), as the deployment configures.',
        },
      },
      schemas: {
        CreateAccount: jsonSchema(CreateAccountBody, 'input'),
        PostTransaction: jsonSchema(PostTransactionBody, 'input'),
        Account: jsonSchema(Account, 'output'),
        Transaction: jsonSchema(Transaction, 'output'),
        TransactionPage: jsonSchema(TransactionPage, 'output'),
        EventSourceList: jsonSchema(EventSourceList, 'output'),
        CreateExport: jsonSchema(CreateExportBody, 'input'),
        Rerun: jsonSchema(RerunBody, 'input'),
        Task: jsonSchema(Task, 'output'),
        ExportResult: jsonSchema(ExportResult, 'output'),
        CreateTransfer: jsonSchema(CreateTransferBody, 'input'),
        Transfer: jsonSchema(Transfer, 'output'),
        PlaceHold: jsonSchema(PlaceHoldBody, 'input'),
        CaptureHold: jsonSchema(CaptureHoldBody, 'input'),
        VoidHold: jsonSchema(VoidHoldBody, 'input'),
        Hold: jsonSchema(Hold, 'output'),
        HoldPage: jsonSchema(HoldPage, 'output'),
        CallbackEvent: jsonSchema(CallbackEventSchema, 'input'),
        CallbackOutcome: {
          type: 'object',
          properties: { outcome: { enum: ['applied', 'duplicate', 'stale', 'superseded'] } },
          required: ['outcome'],
        },
        Problem: jsonSchema(Problem, 'output'),
      },
    },
  };
}

function pick<T extends Record<string, unknown>>(source: T, ...names: (keyof T)[]): Partial<T> {
  return Object.fromEntries(names.map((n) => [n, source[n]])) as Partial<T>;
}

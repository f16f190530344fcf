import type { BatchOperation } from '../../domain/batches/model';
import type { BatchPresenter } from '../../domain/batches/port';
import type { BatchService } from '../../domain/batches/service';
import type { Json } from '../../domain/idempotency/fingerprint';
import type { BatchOperationInput } from '../../schemas/batches';
import { ledgerTransactionFingerprinted } from '../ledger-transactions/routes';
import type { RouteHandlers } from '../router';
import { transferFingerprinted } from '../transfers/routes';
import type { BATCH_ROUTES } from './spec';

/**
 * A batch's answer (docs/contract.md §25): each operation's stored body embedded as it is, so
 * `status` and `body` are byte for byte what the single route answers.
 */
export const batchResponses: BatchPresenter = {
  batch: (mode, results) => {
    const items = results.map(
      ({ key, response, replayed }) =>
        `{"key":${JSON.stringify(key)},"status":${response.statusCode},"body":${response.body}` +
        `${replayed ? ',"replayed":true' : ''}}`,
    );
    return {
      statusCode: 200,
      body: `{"mode":${JSON.stringify(mode)},"results":[${items.join(',')}]}`,
    };
  },
};

/**
 * Each operation as the domain takes it, with the body its single route would fingerprint:
 * the operation's `body` as received, ids lower-cased as that route's handler does.
 */
function operationOf(parsed: BatchOperationInput, raw: Json): BatchOperation {
  const body = ((raw as Record<string, Json>).body ?? null) as Json;
  switch (parsed.op) {
    case 'credit':
    case 'debit':
      return {
        op: parsed.op,
        key: parsed.key,
        accountId: parsed.accountId,
        input: parsed.body,
        rawBody: body,
      };
    case 'transfer':
      return { ...parsed, input: parsed.body, rawBody: transferFingerprinted(body, parsed.body) };
    case 'ledger_transaction':
      return {
        ...parsed,
        input: parsed.body,
        rawBody: ledgerTransactionFingerprinted(body, parsed.body),
      };
  }
}

/**
 * What the batch's own key fingerprints (docs/contract.md §25): its body with each operation as
 * its single route fingerprints it (ids lower-cased), so the same batch sent with upper- and
 * then lower-case ids under one key replays.
 */
function batchFingerprinted(body: Json, raw: readonly Json[], operations: BatchOperation[]): Json {
  return {
    ...(body as Record<string, Json>),
    operations: operations.map((operation, i) => ({
      ...(raw[i] as Record<string, Json>),
      ...('accountId' in operation ? { accountId: operation.accountId } : {}),
      body: operation.rawBody,
    })),
  };
}

/** Batches (docs/contract.md §25): the spec parsed and checked every operation. */
export function batchHandlers(service: BatchService): RouteHandlers<typeof BATCH_ROUTES> {
  return {
    createBatch: ({ command }) => {
      // The body parsed as a strict object with an operations array, so the casts hold.
      const raw = (command.body as Record<string, Json>).operations as Json[];
      const operations = command.input.operations.map((parsed, i) =>
        operationOf(parsed, raw[i] ?? null),
      );
      return service.createBatch(
        command.ctx,
        { mode: command.input.mode, operations },
        batchFingerprinted(command.body, raw, operations),
      );
    },
  };
}

import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';

/**
 * The DynamoDB wire format the contention layer answers in, exactly as the SDK parses it from
 * DynamoDB: the JSON 1.0 protocol (`X-Amz-Target: DynamoDB_20120810.<Operation>`, body
 * `application/x-amz-json-1.0`), errors as HTTP 400 with `__type` = `<namespace>#<shape>`.
 * TransactionCanceledException spells its text `Message` and lists one reason per item of the
 * request, in order: `{ "Code": "None" }` (no message at all) for an item that had no error.
 * The shapes were checked against DynamoDB Local's own answers and the SDK's error models.
 */
export const DYNAMODB_NAMESPACE = 'com.amazonaws.dynamodb.v20120810';
export const JSON_1_0 = 'application/x-amz-json-1.0';

/** `DynamoDB_20120810.TransactWriteItems` → `{ service: 'DynamoDB', operation: 'TransactWriteItems' }`. */
export function targetOf(headers: IncomingHttpHeaders): { service: string; operation: string } {
  const raw = headers['x-amz-target'];
  const value = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  const dot = value.lastIndexOf('.');
  const prefix = dot < 0 ? '' : value.slice(0, dot);
  return {
    service: prefix.startsWith('DynamoDBStreams') ? 'DynamoDBStreams' : prefix.split('_')[0] || '',
    operation: dot < 0 ? value : value.slice(dot + 1),
  };
}

/** One entry of `CancellationReasons`. */
export type CancellationCode =
  | 'None'
  | 'TransactionConflict'
  | 'ThrottlingError'
  | 'ProvisionedThroughputExceeded';

const REASON_MESSAGES: Record<Exclude<CancellationCode, 'None'>, string> = {
  TransactionConflict: 'Transaction is ongoing for the item',
  ThrottlingError:
    'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically ' +
    'scaling your table or index so please try again shortly. If exceptions persist, check if ' +
    'you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html',
  ProvisionedThroughputExceeded:
    'The level of configured provisioned throughput for the table was exceeded. Consider ' +
    'increasing your provisioning level with the UpdateTable API.',
};

/** The body DynamoDB answers a cancelled TransactWriteItems with. */
export function cancellationBody(codes: readonly CancellationCode[]): Record<string, unknown> {
  return {
    __type: `${DYNAMODB_NAMESPACE}#TransactionCanceledException`,
    CancellationReasons: codes.map((Code) =>
      Code === 'None' ? { Code } : { Code, Message: REASON_MESSAGES[Code] },
    ),
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
  };
}

/** A plain write (PutItem, UpdateItem, DeleteItem) to an item a transaction holds. */
export function transactionConflictBody(): Record<string, unknown> {
  return {
    __type: `${DYNAMODB_NAMESPACE}#TransactionConflictException`,
    message: REASON_MESSAGES.TransactionConflict,
  };
}

/**
 * A plain write over the item's budget: `ThrottlingException` on an on-demand table,
 * `ProvisionedThroughputExceededException` on a provisioned one, each with its throttling
 * reasons (a hot key is `TableWriteKeyRangeThroughputExceeded`). The two shapes spell that
 * member differently on the wire (`throttlingReasons` / `ThrottlingReasons`), as the SDK's
 * models of them do.
 */
export function throttlingBody(onDemand: boolean, tableArn: string): Record<string, unknown> {
  const reasons = [{ reason: 'TableWriteKeyRangeThroughputExceeded', resource: tableArn }];
  return onDemand
    ? {
        __type: `${DYNAMODB_NAMESPACE}#ThrottlingException`,
        message: REASON_MESSAGES.ThrottlingError,
        throttlingReasons: reasons,
      }
    : {
        __type: `${DYNAMODB_NAMESPACE}#ProvisionedThroughputExceededException`,
        message:
          'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
        ThrottlingReasons: reasons,
      };
}

/** Writes an error answer the way DynamoDB does: 400, JSON 1.0, a request id and a CRC32. */
export function sendError(response: ServerResponse, body: Record<string, unknown>): void {
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(400, {
    'content-type': JSON_1_0,
    'content-length': String(bytes.length),
    'x-amzn-requestid': randomUUID(),
    'x-amz-crc32': String(crc32(bytes)),
  });
  response.end(bytes);
}

/**
 * The baseline users would otherwise build: "Powertools idempotency + my own handler". A credit
 * or debit posts the same business write as ours — the guarded balance update and the ledger
 * entry in ONE 2-item TransactWriteItems — behind `makeIdempotent` with Powertools' DynamoDB
 * persistence layer (its own table, as its documentation sets it up). Powertools writes an
 * INPROGRESS record first and completes it after the handler, so a first request costs three
 * calls where ours costs one; a replay is one conditional PutItem answered with ALL_OLD.
 */

import { randomUUID } from 'node:crypto';
import {
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import {
  type DynamoDBClient,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpResult } from '../../functions/api/types';
import type { PostingEntry } from '../../functions/domain/accounts/model';
import { composeMoney } from '../../functions/dynamodb/movements/compose';
import { entryLeg } from '../../functions/dynamodb/movements/plan';

export interface PowertoolsCreditOptions {
  readonly client: DynamoDBClient;
  /** The ledger table (accounts and entries, our key schema). */
  readonly ledgerTable: string;
  /** Powertools' idempotency table: partition key `id`, TTL on `expiration`. */
  readonly idempotencyTable: string;
  readonly retentionSeconds: number;
  /** Powertools' in-memory LRU of completed records (`useLocalCache`). */
  readonly useLocalCache: boolean;
}

export type PowertoolsHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

type JwtAuthorizer = { jwt?: { claims?: { sub?: unknown } } };

const TRANSACTIONS_PATH = /^\/v1\/accounts\/([0-9a-f-]{36})\/transactions$/;

const problem = (statusCode: number, code: string): HttpResult => ({
  statusCode,
  headers: { 'content-type': 'application/problem+json' },
  body: JSON.stringify({ status: statusCode, code }),
});

interface TransactionInput {
  readonly type: 'credit' | 'debit';
  readonly amount: number;
  readonly currency: string;
}

/** A hand-written check (no schema library), as a minimal handler would have it. */
function parseTransaction(body: string | undefined): TransactionInput | undefined {
  try {
    const value = JSON.parse(body ?? '') as Partial<TransactionInput>;
    const { type, amount, currency } = value;
    if (type !== 'credit' && type !== 'debit') return undefined;
    if (!Number.isSafeInteger(amount) || (amount as number) < 1) return undefined;
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return undefined;
    return { type, amount: amount as number, currency };
  } catch {
    return undefined;
  }
}

export function createPowertoolsCredit(options: PowertoolsCreditOptions): PowertoolsHandler {
  const persistenceStore = new DynamoDBPersistenceLayer({
    tableName: options.idempotencyTable,
    awsSdkV3Client: options.client,
  });
  const config = new IdempotencyConfig({
    // Scope as ours: (principal, operation, key); the body is the payload it validates.
    eventKeyJmesPath:
      '[requestContext.authorizer.jwt.claims.sub, rawPath, headers."idempotency-key"]',
    payloadValidationJmesPath: 'body',
    throwOnNoIdempotencyKey: true,
    expiresAfterSeconds: options.retentionSeconds,
    useLocalCache: options.useLocalCache,
  });

  async function post(event: HttpEvent, _context: Context): Promise<HttpResult> {
    const accountId = TRANSACTIONS_PATH.exec(event.rawPath)?.[1];
    const principal = (event.requestContext.authorizer as JwtAuthorizer | undefined)?.jwt?.claims
      ?.sub;
    if (!accountId || typeof principal !== 'string') return problem(404, 'not_found');
    const input = parseTransaction(event.body);
    if (!input) return problem(400, 'validation_failed');
    const entry: PostingEntry = {
      id: randomUUID(),
      accountId,
      type: input.type,
      amount: input.amount,
      currency: input.currency,
      origin: 'http',
      createdAt: new Date().toISOString(),
      effectiveAt: new Date().toISOString(),
    };
    try {
      await options.client.send(
        new TransactWriteItemsCommand({
          // No paymentId: the balance update and the entry, 2 items.
          TransactItems: composeMoney(options.ledgerTable, {
            movements: [
              {
                legs: [
                  entryLeg(entry, {
                    ownerId: principal,
                    currency: input.currency,
                    ...(input.type === 'debit' ? { requireAvailableAtLeast: input.amount } : {}),
                  }),
                ],
              },
            ],
          }).map((part) => part.item),
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException) return problem(409, 'rejected');
      throw error;
    }
    return {
      statusCode: 201,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(entry),
    };
  }

  const idempotent = makeIdempotent(post, { persistenceStore, config });
  return async (event, context) => {
    try {
      return await idempotent(event, context);
    } catch (error) {
      if (error instanceof IdempotencyValidationError)
        return problem(422, 'idempotency_key_reused');
      throw error;
    }
  };
}

/** Just enough of a Lambda context for Powertools to set the INPROGRESS expiry. */
export function benchLambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:bench',
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: '/aws/lambda/bench',
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => 10_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

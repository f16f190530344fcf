import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import { type ContentionSettings, startContentionService } from '../contention/service';
import { reachExternal } from '../external';
import type { Lifecycle } from '../lifecycle';
import { assertPortFree } from '../ports';
import {
  DynamoPortTakenError,
  localDynamoClient,
  startDynamoLocal,
  waitUntilDynamoAnswers,
} from './dynamodb-local';
import { ensureLedgerTable, resolveStreamArn } from './table';

export interface DynamoService {
  readonly endpoint: string;
  /** The contention layer in front of it, when DYNAMODB_CONTENTION=on: what the functions call. */
  readonly contentionEndpoint: string | undefined;
  /** True when DYNAMODB_ENDPOINT named a DynamoDB the stack did not start. */
  readonly external: boolean;
  /** False when the DynamoDB Local it started listens on every interface (no source launcher). */
  readonly loopbackOnly: boolean;
  /** Shared by every in-process service; destroyed at shutdown. */
  readonly client: DynamoDBClient;
  /** The table's stream, read by every stream trigger (each with its own checkpoints). */
  readonly stream: TableStream;
}

export interface TableStream {
  readonly arn: string;
  /** Shared by the stream triggers; destroyed at shutdown. */
  readonly client: DynamoDBStreamsClient;
}

export interface DynamoServiceOptions {
  readonly port: number;
  readonly endpoint: string | undefined;
  readonly tableName: string;
  /** Called when the DynamoDB Local this service started dies while the stack runs. */
  readonly onCrash: (detail: string) => void;
  /** Puts the contention layer between the functions and DynamoDB (DYNAMODB_CONTENTION=on). */
  readonly contention?: ContentionSettings;
  /** Where the contention layer's periodic lines go. */
  readonly log?: (line: string) => void;
}

/**
 * DynamoDB Local in memory (or the given endpoint) with the ledger table and its stream; with
 * `contention`, the functions' client talks to it through the contention layer (the stream
 * reads need no layer: Streams calls would pass through it untouched).
 */
export async function startDynamoService(
  lifecycle: Lifecycle,
  options: DynamoServiceOptions,
): Promise<DynamoService> {
  let endpoint = options.endpoint;
  const external = endpoint !== undefined;
  let loopbackOnly = true;
  if (endpoint === undefined) {
    await assertPortFree(options.port, 'DYNAMODB_PORT');
    const dynamo = await startDynamoLocal(options.port, 60_000, {
      signal: lifecycle.signal,
      onUnexpectedExit: (code, output) =>
        options.onCrash(`DynamoDB Local exited unexpectedly (code ${code})\n${output}`),
    }).catch((error: unknown) => {
      throw explainJavaFailure(error);
    });
    lifecycle.defer('DynamoDB Local', () => dynamo.stop());
    endpoint = dynamo.endpoint;
    loopbackOnly = dynamo.loopbackOnly;
  }
  const direct = localDynamoClient(endpoint);
  lifecycle.defer('DynamoDB client', () => direct.destroy());
  await ensureLedgerTable(direct, options.tableName);
  const arn = await resolveStreamArn(direct, options.tableName, lifecycle.signal);
  const layer = options.contention
    ? await startContentionService(lifecycle, endpoint, options.contention, options.log)
    : undefined;
  const client = layer ? localDynamoClient(layer.endpoint) : direct;
  if (layer) lifecycle.defer('DynamoDB client (contention layer)', () => client.destroy());
  const streams = new DynamoDBStreamsClient({ ...LOCAL_AWS, endpoint, maxAttempts: 3 });
  lifecycle.defer('DynamoDB Streams client', () => streams.destroy());
  return {
    endpoint,
    contentionEndpoint: layer?.endpoint,
    external,
    loopbackOnly,
    client,
    stream: { arn, client: streams },
  };
}

/**
 * Waits until DYNAMODB_ENDPOINT answers, before anything slow starts (local/services/external.ts).
 */
export function reachExternalDynamo(endpoint: string, signal: AbortSignal): Promise<void> {
  return reachExternal('DYNAMODB_ENDPOINT', endpoint, (timeoutMs, options) =>
    waitUntilDynamoAnswers(endpoint, timeoutMs, signal, options),
  );
}

/** A failed start of DynamoDB Local as `npm start` says it: what to do about it. */
export function explainJavaFailure(error: unknown): Error {
  if (error instanceof DynamoPortTakenError) {
    // Taken between assertPortFree and the JVM's bind: said as the other services say it.
    return new Error(
      `port ${error.port} on ${error.host} is already in use; set DYNAMODB_PORT to another port`,
      { cause: error },
    );
  }
  const cause = error instanceof Error ? error.cause : undefined;
  if ((cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    return new Error(
      'DynamoDB Local needs Java 17+, and no `java` was found on PATH. Install a JRE ' +
        '(e.g. apt-get install openjdk-17-jre-headless) or set DYNAMODB_ENDPOINT to a running DynamoDB.',
      { cause: error },
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

import type { SQSClient } from '@aws-sdk/client-sqs';
import { reachExternal } from '../external';
import type { Lifecycle } from '../lifecycle';
import { assertPortFree } from '../ports';
import { localSqsClient, startSqsEmulator, waitUntilSqsAnswers } from './fauxqs';
import { ensureQueues, type LocalQueues } from './queues';

const SQS_HOST = '127.0.0.1';

export interface SqsService {
  readonly endpoint: string;
  /** True when SQS_ENDPOINT named an SQS the stack did not start. */
  readonly external: boolean;
  /** Shared by every in-process service; destroyed at shutdown. */
  readonly client: SQSClient;
  readonly queues: LocalQueues;
}

export interface SqsServiceOptions {
  readonly port: number;
  readonly endpoint: string | undefined;
}

/** Checks SQS_PORT early, before slower services start, when the stack will start fauxqs. */
export function reserveSqsPort(options: SqsServiceOptions): Promise<void> {
  return options.endpoint === undefined
    ? assertPortFree(options.port, 'SQS_PORT')
    : Promise.resolve();
}

/** The fauxqs SQS emulator in this process (or the given endpoint) with the queues in place. */
export async function startSqsService(
  lifecycle: Lifecycle,
  options: SqsServiceOptions,
): Promise<SqsService> {
  let endpoint = options.endpoint;
  const external = endpoint !== undefined;
  if (endpoint === undefined) {
    await assertPortFree(options.port, 'SQS_PORT');
    lifecycle.signal.throwIfAborted();
    const sqs = await startSqsEmulator(options.port, SQS_HOST);
    lifecycle.defer('SQS emulator (fauxqs)', () => sqs.stop());
    endpoint = sqs.endpoint;
  }
  const client = localSqsClient(endpoint);
  lifecycle.defer('SQS client', () => client.destroy());
  const queues = await ensureQueues(client, lifecycle.signal);
  return { endpoint, external, client, queues };
}

/** As `reachExternalDynamo`, for SQS_ENDPOINT. */
export function reachExternalSqs(endpoint: string, signal: AbortSignal): Promise<void> {
  return reachExternal('SQS_ENDPOINT', endpoint, (timeoutMs, options) =>
    waitUntilSqsAnswers(endpoint, timeoutMs, signal, options),
  );
}

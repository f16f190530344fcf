import { ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import { LOCAL_AWS } from '../../../functions/contract/local-stack';
import { type WaitOptions, waitUntilAnswering } from '../wait-until-answering';

export function localSqsClient(endpoint: string): SQSClient {
  return new SQSClient({ ...LOCAL_AWS, endpoint, maxAttempts: 3 });
}

export interface RunningSqs {
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts the fauxqs SQS emulator in this process, in memory, listening on `host` only.
 * (fauxqs' own `startFauxqs()` binds every interface, so this builds its app and listens itself.)
 * fauxqs implements RedrivePolicy, long polling and visibility timeouts; queue URLs it returns
 * look like `http://sqs.us-east-1.localhost:<port>/000000000000/<name>` and must be used as is.
 */
export async function startSqsEmulator(port: number, host = '127.0.0.1'): Promise<RunningSqs> {
  const app = buildApp({ logger: false, defaultRegion: LOCAL_AWS.region });
  try {
    await app.listen({ port, host });
  } catch (error) {
    await app.close().catch(() => {});
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`port ${port} on ${host} is already in use; set SQS_PORT to another port`, {
        cause: error,
      });
    }
    throw error;
  }
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  let stopping: Promise<void> | undefined;
  // Ends pending long polls and closes open connections (fauxqs sets forceCloseConnections).
  const stop = (): Promise<void> => {
    const closing = stopping ?? app.close().then(() => {});
    stopping = closing;
    return closing;
  };
  return { endpoint: `http://${host}:${actual}`, port: actual, stop };
}

/** Waits until an SQS endpoint answers ListQueues. */
export async function waitUntilSqsAnswers(
  endpoint: string,
  timeoutMs: number,
  signal?: AbortSignal,
  options?: WaitOptions,
): Promise<void> {
  const client = localSqsClient(endpoint);
  try {
    await waitUntilAnswering(
      `SQS at ${endpoint}`,
      (abortSignal) => client.send(new ListQueuesCommand({ MaxResults: 1 }), { abortSignal }),
      timeoutMs,
      signal,
      options,
    );
  } finally {
    client.destroy();
  }
}

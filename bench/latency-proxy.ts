import { Agent, createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of DynamoDB Local that adds a fixed delay to every call, modelling an
 * in-region network round trip that a local emulator (~1 ms) hides, and counts the calls that
 * pass through it by DynamoDB operation (the `X-Amz-Target` header).
 */
export interface LatencyProxy {
  readonly endpoint: string;
  /** Calls seen so far, by operation (e.g. `TransactWriteItems`). */
  counts(): Readonly<Record<string, number>>;
  /** All calls seen so far. */
  total(): number;
  close(): Promise<void>;
}

export interface LatencyProxyOptions {
  /** Where DynamoDB Local listens, e.g. `http://127.0.0.1:8000`. */
  readonly target: string;
  /** Added to every call: half before forwarding the request, half before answering. */
  readonly rttMs: number;
  /** Per operation instead of `rttMs` (see {@link LATENCY_PROFILES}). */
  readonly profile?: LatencyProfile;
}

/** What the proxy adds to a call, by DynamoDB operation. */
export interface LatencyProfile {
  readonly name: string;
  callMs(operation: string): number;
}

/** Published in-region DynamoDB p50s: a single-item call ≈ 7.5 ms, a transaction ≈ 3× that. */
export const AWS_SINGLE_ITEM_MS = 7.5;
export const AWS_TRANSACTION_FACTOR = 3;

/**
 * The two profiles `npm run bench` measures the HTTP section on, in one run: every call one
 * fixed round trip (`BENCH_RTT_MS`), and an AWS-like one where a transaction costs
 * {@link AWS_TRANSACTION_FACTOR}× a single-item call (DynamoDB Local's own time comes on top of
 * both, and charges a transaction more than a put as well).
 */
export const LATENCY_PROFILES = {
  proxy: (rttMs: number): LatencyProfile => ({
    name: `${rttMs} ms a call`,
    callMs: () => rttMs,
  }),
  awsLike: (): LatencyProfile => ({
    name: `AWS-like: ${AWS_SINGLE_ITEM_MS} ms a call, transactions ${AWS_TRANSACTION_FACTOR}×`,
    callMs: (operation) =>
      operation.startsWith('Transact')
        ? AWS_SINGLE_ITEM_MS * AWS_TRANSACTION_FACTOR
        : AWS_SINGLE_ITEM_MS,
  }),
} as const;

const sleep = (ms: number) =>
  ms <= 0 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `DynamoDB_20120810.TransactWriteItems` → `TransactWriteItems`. */
export function operationOf(headers: IncomingHttpHeaders): string {
  const target = headers['x-amz-target'];
  const value = Array.isArray(target) ? target[0] : target;
  return value?.split('.').at(-1) ?? 'unknown';
}

export async function startLatencyProxy(options: LatencyProxyOptions): Promise<LatencyProxy> {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const counts: Record<string, number> = {};
  let total = 0;
  const profile = options.profile ?? LATENCY_PROFILES.proxy(options.rttMs);

  const server = createServer((incoming, outgoing) => {
    const operation = operationOf(incoming.headers);
    const half = profile.callMs(operation) / 2;
    counts[operation] = (counts[operation] ?? 0) + 1;
    total++;
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      await sleep(half);
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
          agent,
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', async () => {
            await sleep(half);
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(Buffer.concat(body));
          });
        },
      );
      upstream.on('error', (error) => {
        outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(String(error));
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    total: () => total,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

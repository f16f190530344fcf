import {
  Agent,
  createServer,
  request as forward,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/**
 * A loopback HTTP proxy in front of DynamoDB (Local) that injects the faults a real network
 * and a real DynamoDB produce:
 * - lost responses: DynamoDB commits a TransactWriteItems, then the client's socket is destroyed
 *   before the answer reaches it (the client cannot tell whether its write happened);
 * - outages: every request is answered 503 ServiceUnavailable, or its connection is dropped on
 *   arrival, until the outage ends.
 * Faults are drawn from a seeded generator so a failing run can be repeated.
 */
export interface FaultProxy {
  /** http://127.0.0.1:<port>, to use as the DynamoDB endpoint. */
  readonly endpoint: string;
  /** Loses this fraction (0..1) of TransactWriteItems responses after DynamoDB answered. */
  loseTransactResponses(rate: number): void;
  /** Starts or ends an outage (see OutageMode). */
  outage(mode: OutageMode | undefined): void;
  readonly stats: FaultStats;
  close(): Promise<void>;
}

/**
 * `unavailable`: 503 ServiceUnavailable; `refuse`: the connection is dropped unanswered;
 * `stall`: the request is accepted and never answered (a black-holed network path).
 */
export type OutageMode = 'unavailable' | 'refuse' | 'stall';

export interface FaultStats {
  /** Requests DynamoDB received (and answered). */
  forwarded: number;
  /** TransactWriteItems that DynamoDB answered but whose answer the client never got. */
  lostResponses: number;
  /** Requests turned away by an outage. */
  turnedAway: number;
}

const TRANSACT_WRITE = 'DynamoDB_20120810.TransactWriteItems';

/** Starts the proxy on an ephemeral loopback port in front of `upstream` (a loopback URL). */
export async function startFaultProxy(upstream: string, seed = 1): Promise<FaultProxy> {
  const target = new URL(upstream);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
    throw new Error(`the fault proxy only fronts loopback endpoints (got ${upstream})`);
  }
  const random = seededRandom(seed);
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const stats: FaultStats = { forwarded: 0, lostResponses: 0, turnedAway: 0 };
  let lossRate = 0;
  let outageMode: OutageMode | undefined;

  const server = createServer((req, res) => {
    if (outageMode) {
      stats.turnedAway++;
      turnAway(outageMode, req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstreamRequest = forward(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent,
        },
        (upstreamResponse) => relay(upstreamResponse, req, res),
      );
      upstreamRequest.on('error', () => req.socket.destroy());
      upstreamRequest.end(Buffer.concat(chunks));
    });
  });

  /** Waits for DynamoDB's whole answer, then either passes it on or drops the connection. */
  function relay(upstreamResponse: IncomingMessage, req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    upstreamResponse.on('data', (chunk: Buffer) => chunks.push(chunk));
    upstreamResponse.on('end', () => {
      stats.forwarded++;
      const isTransact = req.headers['x-amz-target'] === TRANSACT_WRITE;
      if (isTransact && lossRate > 0 && random() < lossRate) {
        stats.lostResponses++;
        req.socket.destroy();
        return;
      }
      res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      res.end(Buffer.concat(chunks));
    });
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    loseTransactResponses(rate) {
      lossRate = rate;
    },
    outage(mode) {
      outageMode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

function turnAway(mode: OutageMode, req: IncomingMessage, res: ServerResponse): void {
  if (mode === 'refuse') {
    req.socket.destroy();
    return;
  }
  if (mode === 'stall') {
    req.resume(); // read the request, never answer; close() destroys the socket
    return;
  }
  // What DynamoDB's front end sends when it cannot serve a request.
  const body = JSON.stringify({
    __type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable',
    message: 'injected outage',
  });
  req.resume();
  res.writeHead(503, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** mulberry32: small, fast and good enough to spread faults reproducibly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

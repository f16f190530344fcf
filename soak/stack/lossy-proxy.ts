import { Agent, createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { hashed } from '../random';

/**
 * A loopback HTTP proxy in front of the stack's API that loses answers AFTER the server handled
 * the request: the client's socket is destroyed instead of the answer being written, so the
 * client cannot tell whether its request had an effect and must retry under the same key.
 * Which answers are lost is a hash of (seed, Idempotency-Key without its run, attempt): the same
 * operation loses the same answers in a shrunk replay. GETs are never lost.
 *
 * `plantDoubleCredit` is the planted defect of test/faults/soak.test.ts: the retry of a credit
 * whose answer was lost reaches the server under a fresh key, as a ledger that forgot the key
 * would treat it — the credit is applied twice. Never on in `npm run soak`.
 */
export interface LossyProxy {
  readonly base: string;
  /** Points the proxy at a (restarted) stack. */
  retarget(base: string): void;
  readonly stats: { forwarded: number; lost: number; planted: number };
  /** Changes the fraction of keyed answers lost. */
  lossRate(rate: number): void;
  /** Switches the planted defect on or off (see above). */
  plantDoubleCredit(on: boolean): void;
  close(): Promise<void>;
}

export interface LossyOptions {
  readonly seed: number;
  /** Fraction of keyed answers lost, 0..1. */
  readonly lossRate: number;
  readonly plantDoubleCredit?: boolean;
}

export async function startLossyProxy(
  upstream: string,
  options: LossyOptions,
): Promise<LossyProxy> {
  let target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const attempts = new Map<string, number>();
  const lostOnce = new Set<string>();
  const stats = { forwarded: 0, lost: 0, planted: 0 };
  let planted = options.plantDoubleCredit === true;
  let rate = options.lossRate;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = header(req, 'idempotency-key');
      const attempt = key === undefined ? 0 : (attempts.get(key) ?? 0) + 1;
      if (key !== undefined) attempts.set(key, attempt);
      const body = Buffer.concat(chunks);
      const headers: Record<string, string | string[] | undefined> = {
        ...req.headers,
        host: target.host,
      };
      if (
        planted &&
        key !== undefined &&
        lostOnce.has(key) &&
        /"type":"credit"/.test(body.toString())
      ) {
        headers['idempotency-key'] = `${key}-forgotten-${attempt}`;
        stats.planted++;
      }
      const out = forward(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers,
          agent,
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            stats.forwarded++;
            const lose =
              key !== undefined &&
              req.method !== 'GET' &&
              hashed(options.seed, 'lose', withoutRun(key), attempt) < rate;
            if (lose) {
              stats.lost++;
              if (key !== undefined) lostOnce.add(key);
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(parts));
          });
          answer.on('error', () => req.socket.destroy());
        },
      );
      out.on('error', () => req.socket.destroy());
      out.end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    retarget: (base) => {
      target = new URL(base);
    },
    stats,
    lossRate: (value) => {
      rate = value;
    },
    plantDoubleCredit: (on) => {
      planted = on;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Keys are `<run>-<position>…`: a shrunk replay (another run) loses the same answers. */
const withoutRun = (key: string) => key.slice(key.indexOf('-') + 1);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, and what it answered. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly status: number;
}

/**
 * A real loopback HTTP receiver (http://127.0.0.1:<port>/hook): `answer` decides each status
 * from the request's index; every request is kept in arrival order.
 */
export async function startReceiver(answer: (index: number, body: string) => number = () => 204) {
  const received: Received[] = [];
  let decide = answer;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = decide(received.length, body);
      received.push({ headers: req.headers, body, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answerWith(next: (index: number, body: string) => number) {
      decide = next;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

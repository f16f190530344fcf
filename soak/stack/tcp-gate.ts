import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay in front of DynamoDB whose gate can close: while closed, every open connection is
 * cut and new ones are dropped on arrival — DynamoDB unreachable for a few seconds, as the
 * stack's functions would see an outage. Bytes pass untouched otherwise.
 */
export interface TcpGate {
  readonly endpoint: string;
  /** Cuts DynamoDB off for `ms`; resolves when it is reachable again. */
  outage(ms: number): Promise<void>;
  readonly stats: { outages: number; refused: number };
  close(): Promise<void>;
}

export async function startTcpGate(upstream: string): Promise<TcpGate> {
  const target = new URL(upstream);
  const open = new Set<Socket>();
  const stats = { outages: 0, refused: 0 };
  let closed = false;
  const server = createServer((client) => {
    if (closed) {
      stats.refused++;
      client.destroy();
      return;
    }
    const server = connect(Number(target.port), target.hostname);
    open.add(client);
    open.add(server);
    const end = () => {
      client.destroy();
      server.destroy();
      open.delete(client);
      open.delete(server);
    };
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
    client.pipe(server);
    server.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const cutAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    outage: async (ms) => {
      stats.outages++;
      closed = true;
      cutAll();
      await new Promise((resolve) => setTimeout(resolve, ms));
      closed = false;
    },
    close: async () => {
      closed = true;
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

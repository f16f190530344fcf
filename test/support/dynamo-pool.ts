import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDynamoLocalOnFreePort } from '../../kit/dynamo-local';
import type { RunningDynamo } from '../../local/services/dynamodb/dynamodb-local';

/**
 * DynamoDB Locals that test files lease one at a time, each retired after it served
 * `filesPerInstance` files. DynamoDB Local keeps every stream record it ever wrote, deleted
 * tables' included, and each later write to a table with a stream slows as they pile up: on one
 * instance for a whole run, a 3-item transaction went from 6 ms to 96 ms and the integration
 * files took four times as long as alone (docs/architecture.md "Testing notes"). A retired
 * instance stops once its last file released it; its replacement starts at once.
 *
 * The pool runs in Vitest's main process (a project's global setup); files reach it over a
 * loopback HTTP endpoint (`POST /lease` answers `{ "endpoint": … }`, `POST /release` takes it
 * back), through test/support/dynamo-lease.ts.
 */
export interface DynamoPoolOptions {
  /** Instances that serve at once: one per worker. */
  readonly size: number;
  /** Files an instance serves before it is replaced. */
  readonly filesPerInstance: number;
  /** Starts one instance. @default a DynamoDB Local on a free port */
  readonly start?: () => Promise<RunningDynamo>;
}

interface Instance {
  readonly ready: Promise<RunningDynamo>;
  active: number;
  served: number;
  retiring: boolean;
}

export interface DynamoPool {
  /** Where files lease and release: the loopback URL of the pool. */
  readonly url: string;
  /** Instances started so far (the first ones included). */
  started(): number;
  stop(): Promise<void>;
}

export async function startDynamoPool(options: DynamoPoolOptions): Promise<DynamoPool> {
  const instances = new Set<Instance>();
  const byEndpoint = new Map<string, Instance>();
  let started = 0;
  const launch = (): Instance => {
    started += 1;
    const ready = options.start ? options.start() : startDynamoLocalOnFreePort();
    const instance: Instance = { ready, active: 0, served: 0, retiring: false };
    instances.add(instance);
    void ready.then((d) => byEndpoint.set(d.endpoint, instance)).catch(() => {});
    return instance;
  };
  for (let i = 0; i < options.size; i++) launch();
  await Promise.all([...instances].map((i) => i.ready));

  const lease = async (): Promise<string> => {
    const serving = [...instances].filter((i) => !i.retiring);
    const least = serving.reduce((a, b) => (b.active < a.active ? b : a));
    least.active += 1;
    if (least.active + least.served >= options.filesPerInstance) {
      least.retiring = true;
      launch();
    }
    return (await least.ready).endpoint;
  };
  const release = async (endpoint: string) => {
    const instance = byEndpoint.get(endpoint);
    if (!instance) return;
    instance.active -= 1;
    instance.served += 1;
    if (instance.retiring && instance.active === 0) {
      instances.delete(instance);
      byEndpoint.delete(endpoint);
      await (await instance.ready).stop();
    }
  };

  const server: Server = createServer((req, res) => {
    const answer = (work: Promise<unknown>) =>
      work.then(
        (body) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body ?? {}));
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(error));
        },
      );
    const url = new URL(req.url ?? '/', 'http://pool');
    if (req.method === 'POST' && url.pathname === '/lease') {
      void answer(lease().then((endpoint) => ({ endpoint })));
    } else if (req.method === 'POST' && url.pathname === '/release') {
      void answer(release(url.searchParams.get('endpoint') ?? ''));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    started: () => started,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const all = await Promise.allSettled([...instances].map((i) => i.ready));
      await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
    },
  };
}

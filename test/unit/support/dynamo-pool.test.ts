import { afterEach, expect, it } from 'vitest';
import { type DynamoPool, startDynamoPool } from '../../support/dynamo-pool';

/** The test files' DynamoDB Local pool (test/support/dynamo-pool.ts), over fake instances. */

let pool: DynamoPool | undefined;
afterEach(() => pool?.stop());

function fakes() {
  const stopped: string[] = [];
  let n = 0;
  const start = async () => {
    n += 1;
    const endpoint = `http://ddb-${n}`;
    return { endpoint, loopbackOnly: true, stop: async () => void stopped.push(endpoint) };
  };
  return { start, stopped };
}

const lease = async (p: DynamoPool) =>
  ((await (await fetch(`${p.url}/lease`, { method: 'POST' })).json()) as { endpoint: string })
    .endpoint;
const release = (p: DynamoPool, endpoint: string) =>
  fetch(`${p.url}/release?endpoint=${encodeURIComponent(endpoint)}`, { method: 'POST' });

it('leases the least busy instance, one file each while there are enough', async () => {
  const { start } = fakes();
  pool = await startDynamoPool({ size: 2, filesPerInstance: 10, start });
  expect(new Set([await lease(pool), await lease(pool)])).toEqual(
    new Set(['http://ddb-1', 'http://ddb-2']),
  );
  expect(pool.started()).toBe(2);
});

it('replaces an instance after its files, stopping it once its last file released it', async () => {
  const { start, stopped } = fakes();
  pool = await startDynamoPool({ size: 1, filesPerInstance: 2, start });
  const first = await lease(pool);
  await release(pool, first);
  const second = await lease(pool);
  expect(second).toBe(first);
  expect(pool.started()).toBe(2);
  // The replacement serves new files while the retired one still has its last.
  expect(await lease(pool)).toBe('http://ddb-2');
  expect(stopped).toEqual([]);
  await release(pool, second);
  expect(stopped).toEqual(['http://ddb-1']);
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  LATENCY_PROFILES,
  type LatencyProxy,
  operationOf,
  startLatencyProxy,
} from '../../../bench/latency-proxy';

let upstream: Server;
let proxy: LatencyProxy;

beforeAll(async () => {
  // Echoes what it received, so the test sees that method, path, headers and body pass through.
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          target: req.headers['x-amz-target'],
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  proxy = await startLatencyProxy({ target: `http://127.0.0.1:${port}`, rttMs: 0 });
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => upstream.close(resolve));
});

const call = (target: string, body: string) =>
  fetch(`${proxy.endpoint}/`, {
    method: 'POST',
    headers: { 'x-amz-target': target },
    body,
  }).then((r) => r.json());

it('forwards each call unchanged and counts it by DynamoDB operation', async () => {
  const echoed = await call('DynamoDB_20120810.TransactWriteItems', '{"a":1}');
  expect(echoed).toEqual({
    method: 'POST',
    url: '/',
    target: 'DynamoDB_20120810.TransactWriteItems',
    body: '{"a":1}',
  });
  await call('DynamoDB_20120810.PutItem', '{}');
  await call('DynamoDB_20120810.PutItem', '{}');
  expect(proxy.counts()).toEqual({ TransactWriteItems: 1, PutItem: 2 });
  expect(proxy.total()).toBe(3);
});

it.each([
  [{ 'x-amz-target': 'DynamoDB_20120810.GetItem' }, 'GetItem'],
  [{ 'x-amz-target': ['DynamoDB_20120810.Query'] }, 'Query'],
  [{}, 'unknown'],
])('names the operation of %o %s', (headers, name) => {
  expect(operationOf(headers as never)).toBe(name);
});

it('has an AWS-like profile: a transaction 3× a single-item call', () => {
  const aws = LATENCY_PROFILES.awsLike();
  expect(aws.callMs('PutItem')).toBe(7.5);
  expect(aws.callMs('GetItem')).toBe(7.5);
  expect(aws.callMs('TransactWriteItems')).toBe(3 * aws.callMs('PutItem'));
  expect(LATENCY_PROFILES.proxy(2).callMs('TransactWriteItems')).toBe(2);
});

it('adds the profile’s time to each call, by operation', async () => {
  const { port } = upstream.address() as AddressInfo;
  const slow = await startLatencyProxy({
    target: `http://127.0.0.1:${port}`,
    rttMs: 0,
    profile: { name: 'test', callMs: (op) => (op === 'TransactWriteItems' ? 200 : 0) },
  });
  try {
    const timed = async (target: string) => {
      const started = performance.now();
      await fetch(`${slow.endpoint}/`, { method: 'POST', headers: { 'x-amz-target': target } });
      return performance.now() - started;
    };
    expect(await timed('DynamoDB_20120810.TransactWriteItems')).toBeGreaterThanOrEqual(195);
    expect(await timed('DynamoDB_20120810.PutItem')).toBeLessThan(195);
  } finally {
    await slow.close();
  }
});

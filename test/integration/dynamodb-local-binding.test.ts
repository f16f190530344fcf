import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../kit/free-port';
import {
  DynamoPortTakenError,
  type RunningDynamo,
  startDynamoLocal,
} from '../../local/services/dynamodb/dynamodb-local';
import { compiledLauncher } from '../../local/services/dynamodb/launcher';

/**
 * The DynamoDB Local that `npm start` runs listens on 127.0.0.1 only, like the HTTP API and the
 * SQS emulator (README, "Environment variables"); its own CLI has no host option. Where the Java
 * cannot do it (no jdk.compiler for the launcher), it says so.
 */
const PROC = ['/proc/net/tcp', '/proc/net/tcp6'];

/** The local addresses (hex, as the kernel lists them) of the sockets listening on `port`. */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return PROC.filter(existsSync).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[3] === '0A' && cols[1]?.endsWith(`:${hexPort}`))
      .map((cols) => cols[1]?.split(':')[0] ?? ''),
  );
}

/** 127.0.0.1 in /proc/net/tcp, or as an IPv4-mapped address (::ffff:127.0.0.1) in tcp6. */
const LOOPBACK = new Set(['0100007F', '0000000000000000FFFF00000100007F']);

let dynamo: RunningDynamo | undefined;
afterEach(async () => {
  await dynamo?.stop();
  dynamo = undefined;
});

describe.runIf(existsSync(PROC[0] ?? ''))('DynamoDB Local of the local stack', () => {
  it('listens on 127.0.0.1 only', async () => {
    const port = await freePort();
    dynamo = await startDynamoLocal(port);

    expect(dynamo.loopbackOnly).toBe(true);
    const addresses = listeners(port);
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !LOOPBACK.has(address))).toEqual([]);
  });

  it('says so when another process holds its port, apart from any other failure', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const started = startDynamoLocal(port, 30_000);
      await expect(started).rejects.toThrow(DynamoPortTakenError);
      await expect(started).rejects.toMatchObject({ port });
    } finally {
      holder.close();
    }
  });

  it('never takes another server answering on its port for itself', async () => {
    // As another DynamoDB Local would, on a port both were handed: it answers ListTables.
    const other = createHttpServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end('{"TableNames":[]}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    try {
      await expect(startDynamoLocal(port, 30_000)).rejects.toThrow(DynamoPortTakenError);
    } finally {
      other.close();
    }
  });

  it('compiles its launcher once, into one directory every start shares', async () => {
    const dir = await compiledLauncher();
    expect(dir).toBeDefined();
    expect(existsSync(join(dir ?? '', 'LoopbackDynamoDbLocal.class'))).toBe(true);
    expect(await compiledLauncher()).toBe(dir);
    const empty = mkdtempSync(join(tmpdir(), 'no-javac-'));
    expect(await compiledLauncher('no-such-javac', empty)).toBeUndefined();
    expect(readdirSync(empty)).toEqual([]);
  });

  it('falls back to every interface, and says so, when its Java lacks jdk.compiler', async () => {
    const port = await freePort();
    dynamo = await startDynamoLocal(port, 60_000, {
      launcherJavaOptions: ['--limit-modules', 'java.se'],
      launcherCompiler: {
        javac: 'no-such-javac',
        cacheDir: mkdtempSync(join(tmpdir(), 'no-javac-')),
      },
    });

    expect(dynamo.loopbackOnly).toBe(false);
    expect(listeners(port).some((address) => !LOOPBACK.has(address))).toBe(true);
  });
});

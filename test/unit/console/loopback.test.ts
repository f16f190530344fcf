import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConsoleArgs } from '../../../console/server/args';
import type { ConsoleHandler } from '../../../console/server/http/handler';
import {
  isLoopbackHost,
  NotLoopbackError,
  requestAllowed,
} from '../../../console/server/http/loopback';
import { type RunningConsole, startConsoleServer } from '../../../console/server/http/server';

/** docs/contract.md §29: the console binds to loopback only and answers loopback names only. */
const answered: ConsoleHandler = async (_req, res) => {
  res.writeHead(200);
  res.end('console');
  return true;
};
const log = () => {};
let running: RunningConsole | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** An address of this machine that is not loopback, if it has one. */
function otherInterface(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;
}

describe('console loopback', () => {
  it.each(['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])(
    '%s is loopback',
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );

  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '', '128.0.0.1'])(
    '%s is not',
    (host) => expect(isLoopbackHost(host)).toBe(false),
  );

  it.each(['0.0.0.0', '::', '192.168.1.10', otherInterface()].filter((h) => h !== undefined))(
    'refuses to bind to %s before anything listens',
    async (host) => {
      await expect(startConsoleServer({ handler: answered, host, port: 0, log })).rejects.toThrow(
        NotLoopbackError,
      );
    },
  );

  it('binds to 127.0.0.1 and answers there', async () => {
    running = await startConsoleServer({ handler: answered, host: '127.0.0.1', port: 0, log });
    expect(running.url).toBe(`http://127.0.0.1:${running.port}/console/`);
    const status = await new Promise<number | undefined>((resolve, reject) =>
      request(running?.url ?? '', (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .once('error', reject)
        .end(),
    );
    expect(status).toBe(200);
  });

  it('npm run console refuses --host on another interface', () => {
    expect(() => parseConsoleArgs(['--host', '0.0.0.0'], {})).toThrow(
      '--host must be a loopback address (127.0.0.1, ::1), not "0.0.0.0"',
    );
    expect(() => parseConsoleArgs(['--aws', '--table', 'ledger-prod'], {})).toThrow(
      '--stage <stage>',
    );
    expect(
      parseConsoleArgs(['--aws', '--table', 'ledger-prod', '--stage', 'prod'], {}),
    ).toMatchObject({
      aws: true,
      table: 'ledger-prod',
      queuePrefix: 'prod-',
      host: '127.0.0.1',
    });
  });

  it.each([
    [{ remoteAddress: '10.0.0.5', host: '127.0.0.1:3000', origin: undefined }, 'loopback clients'],
    [{ remoteAddress: '127.0.0.1', host: 'evil.example:3000', origin: undefined }, 'Host header'],
    [{ remoteAddress: '127.0.0.1', host: undefined, origin: undefined }, 'Host header'],
    [
      { remoteAddress: '127.0.0.1', host: '127.0.0.1:3000', origin: 'http://evil.example' },
      'http://evil.example',
    ],
  ])('refuses a request %o', (req, words) => {
    expect(requestAllowed(req)).toContain(words);
  });

  it('answers the console’s own pages', () => {
    expect(
      requestAllowed({
        remoteAddress: '::ffff:127.0.0.1',
        host: '127.0.0.1:3000',
        origin: 'http://127.0.0.1:3000',
      }),
    ).toBeUndefined();
    expect(
      requestAllowed({ remoteAddress: '::1', host: 'localhost:3001', origin: undefined }),
    ).toBeUndefined();
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeError } from '../../../functions/domain/shared/log';
import { CONSOLE_PATH } from '../../shared/api';
import type { ConsoleHandler } from './handler';
import { assertLoopback } from './loopback';

export interface RunningConsole {
  /** http://<host>:<port>/console */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * `npm run console`'s own server: node:http on a loopback interface only (any other host is
 * refused before anything listens). `npm start` mounts the same handler on its HTTP port.
 */
export async function startConsoleServer(options: {
  readonly handler: ConsoleHandler;
  readonly host: string;
  readonly port: number;
  readonly log: (line: string) => void;
}): Promise<RunningConsole> {
  assertLoopback(options.host);
  const server = createServer((req, res) => {
    options.handler(req, res).then(
      (answered) => {
        if (answered) return;
        res.writeHead(302, { location: `${CONSOLE_PATH}/` });
        res.end();
      },
      (error: unknown) => {
        options.log(`could not serve ${req.method} ${req.url}: ${describeError(error)}`);
        if (res.headersSent) res.destroy();
        else {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('the console failed; see its output');
        }
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${port}${CONSOLE_PATH}/`, port, close: () => close(server) };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

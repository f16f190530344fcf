import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROBLEMS, problemType } from '../../../functions/api/problems';
import type { HttpHandler, HttpResult } from '../../../functions/api/types';
import type { ErrorCode } from '../../../functions/domain/shared/errors';
import { stackOf } from '../../../functions/domain/shared/log';
import { buildHttpEvent } from './event';

/**
 * A `node:http` server standing in for API Gateway: each request becomes a payload v2 event,
 * the handler's result is written back as API Gateway would.
 */

/** Protects the process; the app itself answers 413 above the contract's 64 KiB. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface HttpAdapterOptions {
  readonly maxBodyBytes?: number;
  /**
   * One line per request the adapter answers itself (pages, 401, 413, 500) and the details of
   * handler failures; the function logs the requests it answers (its `request` line), so each
   * request prints one line. @default no output
   */
  readonly log?: (line: string) => void;
  /**
   * Pages served beside the API (the local `/docs`): resolves true when it answered the
   * request, false to hand it to the API handler. @default none
   */
  readonly pages?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  /**
   * Whether the route of a request sits behind the authorizer. For those, a malformed
   * `X-Principal-Id` is answered 401 here, saying what is wrong, before the function runs, as
   * an authorizer refuses a bad token on AWS. @default no route (the handler sees no principal)
   */
  readonly needsPrincipal?: (method: string, path: string) => boolean;
}

export interface RunningHttpServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

function createRequestListener(
  handler: HttpHandler,
  options: HttpAdapterOptions = {},
): RequestListener {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? (() => {});
  const pages = options.pages;
  const api: RequestListener = (req, res) => {
    const started = Date.now();
    const requestId = randomUUID();
    res.setHeader('apigw-requestid', requestId);
    let answered = false; // by the handler, which logs the request itself
    res.once('finish', () => {
      if (!answered)
        log(`${req.method} ${req.url} -> ${res.statusCode} (${Date.now() - started} ms)`);
    });
    readBody(req, maxBodyBytes).then(
      async (body) => {
        if (body === undefined) {
          res.setHeader('connection', 'close');
          return sendProblem(res, 'payload_too_large', `The body exceeds ${maxBodyBytes} bytes.`);
        }
        const { event, principal } = buildHttpEvent({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          httpVersion: req.httpVersion,
          rawHeaders: req.rawHeaders,
          remoteAddress: req.socket.remoteAddress,
          body,
          requestId,
          receivedAt: new Date(started),
        });
        if (
          principal.kind === 'malformed' &&
          options.needsPrincipal?.(event.requestContext.http.method, event.rawPath)
        ) {
          return sendProblem(res, 'unauthenticated', principal.problem);
        }
        let result: HttpResult;
        try {
          result = await handler(event);
          assertResult(result);
        } catch (error) {
          log(
            `handler failed for ${req.method} ${req.url} (request ${requestId}): ${stackOf(error)}`,
          );
          return sendProblem(res, 'internal', 'An unexpected error occurred.');
        }
        answered = true;
        try {
          writeResult(res, result);
        } catch (error) {
          // e.g. a header value Node refuses: still one bad response, never a dead server.
          log(`could not write the response (request ${requestId}): ${stackOf(error)}`);
          if (res.headersSent) res.destroy();
          else sendProblem(res, 'internal', 'An unexpected error occurred.');
        }
      },
      (error: unknown) => {
        // The client went away mid-body: there is nobody left to answer.
        log(`could not read the request body: ${stackOf(error)}`);
        res.destroy();
      },
    );
  };
  if (!pages) return api;
  return (req, res) => {
    const started = Date.now();
    pages(req, res).then(
      (answered) => {
        if (!answered) return api(req, res);
        log(`${req.method} ${req.url} -> ${res.statusCode} (${Date.now() - started} ms)`);
      },
      (error: unknown) => {
        log(`could not serve ${req.method} ${req.url}: ${stackOf(error)}`);
        if (res.headersSent) res.destroy();
        else sendProblem(res, 'internal', 'An unexpected error occurred.');
      },
    );
  };
}

export function startHttpServer(
  handler: HttpHandler,
  port: number,
  host = '127.0.0.1',
  options: HttpAdapterOptions = {},
): Promise<RunningHttpServer> {
  const listener = createRequestListener(handler, options);
  const server = createServer(listener);
  // `Expect: 100-continue`: invite the body only when it fits; the listener answers 413 otherwise.
  server.on('checkContinue', (req, res) => {
    const declared = Number(req.headers['content-length']);
    if (!(declared > (options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES))) res.writeContinue();
    listener(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new Error(`port ${port} on ${host} is already in use`, { cause: error }));
      } else {
        reject(error);
      }
    });
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({ url: `http://${host}:${actual}`, port: actual, close: () => closeServer(server) });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), 2_000);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Resolves the body, or undefined when it is larger than `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume(); // discard without buffering
      return resolve(undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeListener('data', onData);
        chunks.length = 0;
        req.resume();
        resolve(undefined);
      } else {
        chunks.push(chunk);
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function assertResult(result: HttpResult): void {
  const status: unknown = result?.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new Error(`handler returned an invalid statusCode: ${String(status)}`);
  }
}

function writeResult(res: ServerResponse, result: HttpResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    headers[name.toLowerCase()] = String(value);
  }
  const body = result.isBase64Encoded
    ? Buffer.from(result.body ?? '', 'base64')
    : Buffer.from(result.body ?? '', 'utf8');
  // API Gateway's default for a payload v2 response without a content type.
  if (body.length > 0 && headers['content-type'] === undefined) {
    headers['content-type'] = 'application/json';
  }
  headers['content-length'] = String(body.length);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode, headers);
  res.end(body);
}

/** Answers as the function would: the problem table's status and title (docs/contract.md §3). */
function sendProblem(res: ServerResponse, code: ErrorCode, detail: string): void {
  const { status, title } = PROBLEMS[code];
  const body = JSON.stringify({ type: problemType(code), title, status, detail, code });
  res.writeHead(status, {
    'content-type': 'application/problem+json',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeError } from '../../../functions/domain/shared/log';
import { CONSOLE_API, CONSOLE_PATH, CONSOLE_ROUTES } from '../../shared/api';
import type { AccountReader } from '../accounts/reader';
import type { Findings } from '../books/findings';
import type { Bundle } from '../bundle/bundle';
import type { Gaps } from '../gaps/gaps';
import type { IntakeReader } from '../intake/intake';
import type { DeadLetters } from '../queues/dead-letters';
import { type ActionAnswer, createActions } from './actions';
import { requestAllowed } from './loopback';

export interface ConsoleDeps {
  readonly accounts: AccountReader;
  readonly deadLetters: DeadLetters;
  readonly gaps: Gaps;
  readonly findings: Findings;
  readonly intake: Pick<IntakeReader, 'lag'>;
  readonly bundle: Bundle;
  readonly user: string;
  /** Where action lines (and failures) go: `npm start`'s or `npm run console`'s output. */
  readonly log: (line: string) => void;
}

/** Largest action body read. */
const MAX_BODY_BYTES = 64 * 1024;

/** Answers `/console` and everything under it; resolves false for any other path. */
export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/**
 * The console's pages and JSON API: the bundle's files, the pages' reads (GET) and the two
 * actions (POST, JSON, confirmed). Only loopback requests addressed to a loopback name are
 * answered (./loopback.ts).
 */
export function createConsoleHandler(deps: ConsoleDeps): ConsoleHandler {
  const actions = createActions(deps);
  const reads: Record<string, (url: URL) => Promise<ActionAnswer>> = {
    [CONSOLE_ROUTES.accounts]: async (url) => {
      const q = url.searchParams.get('q')?.trim();
      return ok(await (q ? deps.accounts.search(q) : deps.accounts.recent()));
    },
    [CONSOLE_ROUTES.deadLetters]: async () => ok(await deps.deadLetters.list()),
    [CONSOLE_ROUTES.gaps]: async () => ok(await deps.gaps.list()),
    [CONSOLE_ROUTES.findings]: async () => ok(await deps.findings.list()),
    [CONSOLE_ROUTES.intake]: async () => ok(await deps.intake.lag()),
  };
  const posts: Record<string, (body: unknown) => Promise<ActionAnswer>> = {
    [CONSOLE_ROUTES.redrive]: (body) => actions.redrive(body),
    [CONSOLE_ROUTES.waive]: (body) => actions.waive(body),
  };

  async function api(req: IncomingMessage, url: URL): Promise<ActionAnswer> {
    const path = url.pathname;
    if (req.method === 'GET') {
      const read = reads[path];
      if (read) return read(url);
      const accountPrefix = `${CONSOLE_ROUTES.accounts}/`;
      if (path.startsWith(accountPrefix)) {
        const id = decodeURIComponent(path.slice(accountPrefix.length));
        const page = await deps.accounts.page(id);
        return page ? ok(page) : { status: 404, body: { error: `no account ${id}` } };
      }
    }
    const post = posts[path];
    if (post && req.method === 'POST') {
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return { status: 415, body: { error: 'actions take a JSON body (application/json)' } };
      }
      const body = await readJson(req);
      if (body === undefined) return { status: 400, body: { error: 'the body is not JSON' } };
      return post(body);
    }
    if (post || reads[path]) {
      return { status: 405, body: { error: `${req.method} is not allowed here` } };
    }
    return { status: 404, body: { error: `nothing at ${path}` } };
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://console');
    const path = url.pathname;
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return false;
    const refused = requestAllowed({
      remoteAddress: req.socket.remoteAddress,
      host: req.headers.host,
      origin: req.headers.origin,
    });
    if (refused) {
      sendJson(res, 403, { error: refused });
      return true;
    }
    if (path === CONSOLE_API || path.startsWith(`${CONSOLE_API}/`)) {
      let answer: ActionAnswer;
      try {
        answer = await api(req, url);
      } catch (error) {
        deps.log(`could not answer ${req.method} ${path}: ${describeError(error)}`);
        answer = { status: 502, body: { error: `the read failed: ${describeError(error)}` } };
      }
      sendJson(res, answer.status, answer.body);
      return true;
    }
    await deps.bundle.serve(path.slice(CONSOLE_PATH.length), req, res);
    return true;
  };
}

const ok = (body: unknown): ActionAnswer => ({ status: 200, body });

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(bytes.length),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(bytes);
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.once('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        resolve(undefined);
      }
    });
    req.once('error', reject);
  });
}

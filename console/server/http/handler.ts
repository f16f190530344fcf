import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEMS } from '../../../functions/api/problems';
import { UnavailableError, ValidationError } from '../../../functions/domain/shared/errors';
import { describeError } from '../../../functions/domain/shared/log';
import { CONSOLE_API, CONSOLE_PATH, CONSOLE_ROUTES, CONSOLE_TOKEN_HEADER } from '../../shared/api';
import type { AccountReader } from '../accounts/reader';
import type { Findings } from '../books/findings';
import type { Bundle } from '../bundle/bundle';
import type { Gaps } from '../gaps/gaps';
import type { IntakeReader } from '../intake/intake';
import type { DeadLetters } from '../queues/dead-letters';
import type { ConsoleSearch } from '../search/search';
import type { ConsoleWebhooksReader } from '../webhooks/webhooks';
import { type ActionAnswer, createActions } from './actions';
import { requestAllowed } from './loopback';
import { crossSiteRefusal, tokenMatches } from './token';

export interface ConsoleDeps {
  readonly accounts: AccountReader;
  readonly deadLetters: DeadLetters;
  readonly gaps: Gaps;
  readonly findings: Findings;
  readonly intake: Pick<IntakeReader, 'lag'>;
  /** The search box: the API's search service scoped to the owner typed (§34). */
  readonly search: ConsoleSearch;
  /** The Webhooks page: an owner's endpoints and failed deliveries (§32). */
  readonly webhooks: ConsoleWebhooksReader;
  readonly bundle: Bundle;
  readonly user: string;
  /** This start's token (./token.ts): every `/console/api` request must carry it. */
  readonly token: string;
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
      const cursor = url.searchParams.get('cursor') ?? undefined;
      return ok(await (q ? deps.accounts.search(q, cursor) : deps.accounts.recent(cursor)));
    },
    [CONSOLE_ROUTES.deadLetters]: async () => ok(await deps.deadLetters.list()),
    [CONSOLE_ROUTES.gaps]: async () => ok(await deps.gaps.list()),
    [CONSOLE_ROUTES.findings]: async () => ok(await deps.findings.list()),
    [CONSOLE_ROUTES.intake]: async () => ok(await deps.intake.lag()),
    [CONSOLE_ROUTES.search]: (url) => deps.search.find(url.searchParams),
    [CONSOLE_ROUTES.webhooks]: (url) => deps.webhooks.list(url.searchParams),
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
        const id = accountIdOf(path.slice(accountPrefix.length));
        if (typeof id !== 'string') return id;
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
    const crossSite = crossSiteRefusal(header(req, 'sec-fetch-site'));
    if (refused || crossSite) {
      sendJson(res, 403, { error: refused ?? crossSite });
      return true;
    }
    if (path === CONSOLE_API || path.startsWith(`${CONSOLE_API}/`)) {
      if (!tokenMatches(deps.token, header(req, CONSOLE_TOKEN_HEADER))) {
        sendJson(res, 401, { error: NO_TOKEN });
        return true;
      }
      let answer: ActionAnswer;
      let retryAfter: number | undefined;
      try {
        answer = await api(req, url);
      } catch (error) {
        if (error instanceof ValidationError) {
          // A foreign cursor or the like: the asker's mistake, said in words (§31).
          answer = { status: 400, body: { error: error.detail } };
        } else if (error instanceof UnavailableError) {
          // Not there yet (a directory index before its upgrade step) or throttled: try later.
          deps.log(`could not answer ${req.method} ${path}: ${describeError(error)}`);
          answer = { status: 503, body: { error: error.detail } };
          // As the API's 503 (functions/api/problems.ts): when to ask again.
          retryAfter = PROBLEMS.unavailable.retryAfterSeconds;
        } else {
          deps.log(`could not answer ${req.method} ${path}: ${describeError(error)}`);
          answer = { status: 502, body: { error: `the read failed: ${describeError(error)}` } };
        }
      }
      sendJson(
        res,
        answer.status,
        answer.body,
        retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
      );
      return true;
    }
    await deps.bundle.serve(path.slice(CONSOLE_PATH.length), req, res);
    return true;
  };
}

const ok = (body: unknown): ActionAnswer => ({ status: 200, body });

const NO_TOKEN =
  `the console's API needs its token in the ${CONSOLE_TOKEN_HEADER} header: open the console ` +
  'at the URL its start printed (…/console/#token=…); a restart makes a new token';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account id of a path segment, or the `400` a malformed escape or id gets (§31). */
function accountIdOf(segment: string): string | ActionAnswer {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    return { status: 400, body: { error: `"${segment}" has a malformed %-escape` } };
  }
  if (UUID.test(id)) return id.toLowerCase();
  const error = `"${id}" is not an account id: ids are UUIDs such as 3f2b1c9e-8d7a-4e6f-9b5c-1a2d3e4f5a6b`;
  return { status: 400, body: { error } };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    ...headers,
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

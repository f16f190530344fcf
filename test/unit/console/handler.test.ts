import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountReader } from '../../../console/server/accounts/reader';
import { gapRows } from '../../../console/server/accounts/rows';
import type { Findings } from '../../../console/server/books/findings';
import { loadBundle } from '../../../console/server/bundle/bundle';
import type { Gaps } from '../../../console/server/gaps/gaps';
import { createConsoleHandler } from '../../../console/server/http/handler';
import { type RunningConsole, startConsoleServer } from '../../../console/server/http/server';
import type { DeadLetters } from '../../../console/server/queues/dead-letters';
import { consoleWebhooksOver } from '../../../console/server/webhooks/webhooks';
import { EMPTY_EVENT_SOURCE } from '../../../functions/domain/gaps/source-state';
import { ValidationError } from '../../../functions/domain/shared/errors';
import { DirectoryIndexMissing } from '../../../functions/dynamodb/accounts/directory';

/** The console's HTTP edge (docs/contract.md §29): what it serves and what it refuses. */
let running: RunningConsole;
const TOKEN = 'k3J9-this-start-s-token_0123456789abcdefghijk';
let dir: string;
const lines: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'console-bundle-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)');
  const handler = createConsoleHandler({
    accounts: {
      recent: async (cursor?: string) => {
        if (cursor === 'foreign')
          throw new ValidationError('The cursor is not one this listing returned.');
        return { items: [], ...(cursor ? {} : { nextCursor: 'next' }) };
      },
      search: async (q: string, cursor?: string) => {
        if (q === 'before-upgrade') {
          const cause = new Error('The table does not have the specified index: account-owners');
          throw new DirectoryIndexMissing('account-owners', cause);
        }
        return { items: [], nextCursor: `${q}:${cursor}` };
      },
      page: async () => undefined,
    } as unknown as AccountReader,
    deadLetters: {
      queueNames: () => ['dlq'],
      list: async () => ({ queues: [] }),
    } as unknown as DeadLetters,
    gaps: { list: async () => ({ sources: [], overdueAfterSeconds: 60 }) } as unknown as Gaps,
    findings: {
      list: async () => {
        throw new Error('table unreachable');
      },
    } as unknown as Findings,
    intake: {
      lag: async () => ({
        accounts: [],
        readAt: '2026-12-04T10:00:00.000Z',
        scanned: 3,
        complete: true,
      }),
    },
    search: {
      find: async (params: URLSearchParams) =>
        params.has('owner')
          ? { status: 200, body: { owner: params.get('owner') } }
          : { status: 400, body: { error: 'give the owner' } },
    },
    webhooks: consoleWebhooksOver({
      listEndpoints: async () => [],
      listDeliveries: async () => ({ items: [], nextCursor: null }),
    }),
    bundle: await loadBundle(dir),
    user: 'maria',
    token: TOKEN,
    log: (line) => lines.push(line),
  });
  running = await startConsoleServer({ handler, host: '127.0.0.1', port: 0, log: () => {} });
});

afterAll(async () => {
  await running?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A request as the console's page sends it (with the token), unless `token` says otherwise. */
function call(
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    token?: string | null;
  } = {},
): Promise<{ status: number; body: string; type: string; retryAfter?: string }> {
  const token = options.token === undefined ? TOKEN : options.token;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: running.port,
        path,
        method: options.method ?? 'GET',
        headers: { ...(token === null ? {} : { 'x-console-token': token }), ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            type: String(res.headers['content-type']),
            ...(res.headers['retry-after'] === undefined
              ? {}
              : { retryAfter: String(res.headers['retry-after']) }),
          }),
        );
      },
    );
    req.once('error', reject);
    req.end(options.body);
  });
}

describe('console HTTP edge', () => {
  it.each(['/console', '/console/', '/console/index.html'])('%s is the page', async (path) => {
    const answer = await call(path);
    expect(answer).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(answer.body).toContain('<title>console</title>');
  });

  it('serves the built files and nothing else from the disk', async () => {
    await expect(call('/console/assets/app.js')).resolves.toMatchObject({ status: 200 });
    for (const path of ['/console/x', '/console/assets/', '/console/assets/app.js.map']) {
      await expect(call(path)).resolves.toMatchObject({ status: 404 });
    }
    // Normalised to /package.json: not the console's, so nothing is read.
    await expect(call('/console/../package.json')).resolves.toMatchObject({
      status: 302,
      body: '',
    });
  });

  it('sends any other path to the console', async () => {
    await expect(call('/elsewhere')).resolves.toMatchObject({ status: 302 });
  });

  it('answers the reads as JSON', async () => {
    const found = await call('/console/api/accounts?q=alice');
    expect(JSON.parse(found.body)).toEqual({ items: [], nextCursor: 'alice:undefined' });
    const paged = await call('/console/api/accounts?q=alice&cursor=c1');
    expect(JSON.parse(paged.body)).toEqual({ items: [], nextCursor: 'alice:c1' });
    const recent = await call('/console/api/accounts');
    expect(JSON.parse(recent.body)).toEqual({ items: [], nextCursor: 'next' });
    const unknown = '/console/api/accounts/3f2b1c9e-8d7a-4e6f-9b5c-1a2d3e4f5a6b';
    await expect(call(unknown)).resolves.toMatchObject({ status: 404 });
    const search = await call('/console/api/search?owner=alice&reference=r');
    expect(JSON.parse(search.body)).toEqual({ owner: 'alice' });
    await expect(call('/console/api/search?reference=r')).resolves.toMatchObject({ status: 400 });
    await expect(call('/console/api/search?owner=a', { token: null })).resolves.toMatchObject({
      status: 401,
    });
    const hooks = await call('/console/api/webhooks?owner=alice');
    expect(JSON.parse(hooks.body)).toEqual({ owner: 'alice', endpoints: [], failed: [] });
    await expect(call('/console/api/webhooks')).resolves.toMatchObject({ status: 400 });
    await expect(call('/console/api/webhooks?owner=a', { token: null })).resolves.toMatchObject({
      status: 401,
    });
    const intake = await call('/console/api/intake');
    expect(JSON.parse(intake.body)).toEqual({
      accounts: [],
      readAt: '2026-12-04T10:00:00.000Z',
      scanned: 3,
      complete: true,
    });
  });

  it('a directory index the table lacks yet is 503, naming it and the upgrade step', async () => {
    const answer = await call('/console/api/accounts?q=before-upgrade');
    expect(answer.status).toBe(503);
    // When to ask again, as the API's 503 says it.
    expect(answer.retryAfter).toBe('1');
    const { error } = JSON.parse(answer.body) as { error: string };
    expect(error).toMatch(
      /^The account directory's index "account-owners" is not on this table yet/,
    );
    expect(error).toContain('accountDirectoryIndexes');
    expect(error).toContain('npm run cli -- accounts-backfill');
    expect(lines.at(-1)).toMatch(
      /^could not answer GET \/console\/api\/accounts: DirectoryIndexMissing unavailable: /,
    );
  });

  it('says in words when a read fails, and logs it', async () => {
    const answer = await call('/console/api/findings');
    expect(answer.retryAfter).toBeUndefined();
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toEqual({ error: 'the read failed: Error: table unreachable' });
    expect(lines.at(-1)).toBe(
      'could not answer GET /console/api/findings: Error: table unreachable',
    );
  });

  it('takes actions only as POSTs of JSON', async () => {
    await expect(call('/console/api/gaps/waive')).resolves.toMatchObject({ status: 405 });
    const form = await call('/console/api/dead-letters/redrive', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"queue":"dlq","confirm":true}',
    });
    expect(form.status).toBe(415);
    const broken = await call('/console/api/dead-letters/redrive', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(broken.status).toBe(400);
  });

  it('refuses another Host or another Origin', async () => {
    const host = await call('/console/api/gaps', { headers: { host: 'attacker.example' } });
    expect(host.status).toBe(403);
    const origin = await call('/console/api/gaps', {
      headers: { origin: 'http://attacker.example' },
    });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error).toContain('http://attacker.example');
  });
});

describe('console token and cross-site requests (§31)', () => {
  it('answers every API request without the token 401, GET too, naming the header', async () => {
    for (const token of [null, '', 'wrong', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const read = await call('/console/api/gaps', { token });
      expect(read.status).toBe(401);
      expect(JSON.parse(read.body).error).toContain('X-Console-Token');
      const action = await call('/console/api/dead-letters/redrive', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"queue":"dlq","confirm":true}',
        token,
      });
      expect(action.status).toBe(401);
    }
    await expect(call('/console/api/gaps')).resolves.toMatchObject({ status: 200 });
  });

  it('serves the page itself without a token: it reads the token from its URL fragment', async () => {
    await expect(call('/console/', { token: null })).resolves.toMatchObject({ status: 200 });
  });

  it('refuses a cross-site or same-site browser request 403, even with the token', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const answer = await call('/console/api/gaps', { headers: { 'sec-fetch-site': site } });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).error).toContain('Sec-Fetch-Site');
    }
    for (const site of ['same-origin', 'none']) {
      const answer = await call('/console/api/gaps', { headers: { 'sec-fetch-site': site } });
      expect(answer.status).toBe(200);
    }
  });

  it('answers a malformed account id or escape 400 with what is wrong, never 502', async () => {
    const badEscape = await call('/console/api/accounts/%E0%A4%A');
    expect(badEscape.status).toBe(400);
    expect(JSON.parse(badEscape.body).error).toBe('"%E0%A4%A" has a malformed %-escape');
    const id = await call('/console/api/accounts/not-an-id');
    expect(id.status).toBe(400);
    expect(JSON.parse(id.body).error).toContain('"not-an-id" is not an account id');
    const cursor = await call('/console/api/accounts?cursor=foreign');
    expect(cursor.status).toBe(400);
    expect(JSON.parse(cursor.body).error).toBe('The cursor is not one this listing returned.');
  });
});

describe('gap rows', () => {
  it('marks a gap overdue once it has been open 12 × the re-fetch delay', () => {
    const now = new Date('2026-12-02T12:00:00.000Z');
    const rows = gapRows(
      {
        ...EMPTY_EVENT_SOURCE,
        gaps: [2, 3],
        gapDetails: [
          {
            number: 2,
            openedAt: '2026-12-02T11:00:00.000Z',
            refetchRequestedAt: '2026-12-02T11:05:00.000Z',
          },
          { number: 3, openedAt: '2026-12-02T11:00:00.001Z' },
        ],
      },
      now,
      300,
    );
    expect(rows.map((r) => [r.number, r.overdue])).toEqual([
      [2, true],
      [3, false],
    ]);
    expect(rows[0]?.refetchRequestedAt).toBe('2026-12-02T11:05:00.000Z');
  });
});

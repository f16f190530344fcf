import { createHash } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../functions/contract/exports';
import { type ApiResponse, apiClient } from './support/raw-api';
import { runScript } from './support/run-script';
import { groupAlive, type LocalStack, startLocalStack } from './support/stack';

/**
 * The export loop end to end on `npm start` (docs/contract.md §5, §8, §12): a paid export writes
 * the task and an outbox item in one transaction, the dispatcher puts the job on `export-jobs`,
 * the stack's export worker streams the account's entries into the `ledger-exports` bucket and
 * reports SUCCEEDED through signed callbacks, and the result route hands out a presigned URL
 * that downloads with a plain GET.
 */

const EXPORT_FEE = 250;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const alice = { principal: 'alice' };

let stack: LocalStack;
let api: ReturnType<typeof apiClient>;
let sqs: SQSClient;
let s3: S3Client;

beforeAll(async () => {
  stack = await startLocalStack({ EXPORT_FEE: String(EXPORT_FEE), CALLBACK_SECRETS: '' });
  api = apiClient(stack.base);
  const local = {
    endpoint: stack.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'e2e', secretAccessKey: 'e2e' },
  };
  sqs = new SQSClient(local);
  s3 = new S3Client({ ...local, forcePathStyle: true });
});

afterAll(() => {
  sqs?.destroy();
  s3?.destroy();
  // Safety net only: the last test stops the stack with SIGINT.
  stack?.kill();
});

/** Runs `npm run cli -- <args>` (as node --import tsx cli/main.ts) against the stack; resolves code and output. */
function cli(...args: string[]) {
  return runScript(
    'cli/main.ts',
    args,
    { PORT: String(stack.httpPort), CALLBACK_SECRETS: '' },
    45_000,
  );
}

async function succeeded(taskId: string): Promise<Record<string, unknown>> {
  let task: Record<string, unknown> = {};
  await expect
    .poll(
      async () => {
        task = (await api('GET', `/v1/tasks/${taskId}`, alice)).json;
        return task.status;
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBe('SUCCEEDED');
  return task;
}

/** Every listing item of the account, newest first, page by page. */
async function listing(accountId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: unknown;
  do {
    const query = `limit=100${cursor ? `&cursor=${encodeURIComponent(String(cursor))}` : ''}`;
    const page = await api('GET', `/v1/accounts/${accountId}/transactions?${query}`, alice);
    items.push(...(page.json.items as Record<string, unknown>[]));
    cursor = page.json.nextCursor;
  } while (cursor);
  return items;
}

async function download(url: string): Promise<Buffer> {
  // A plain GET with no headers: what `curl -sS "<url>"` sends.
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** A minimal RFC 4180 reader for the test's own files (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('exports that produce a file', () => {
  let accountId = '';
  let taskId = '';
  let firstExecutionId = '';
  let created: ApiResponse;
  const exportCall = { ...alice, key: 'e2e-export-1', body: { format: 'csv' } };

  it('answers 202 with the task (deadline, bounded executions) and debits the export fee', async () => {
    const account = await api('POST', '/v1/accounts', {
      ...alice,
      key: 'e2e-exports-account',
      body: { currency: 'EUR' },
    });
    expect(account.status).toBe(201);
    accountId = String(account.json.id);
    const credits = [
      { amount: 1_000, reference: 'salary, "november"', metadata: { memo: 'a, "b"' } },
      { amount: 42, reference: '=HYPERLINK("http://x")' },
      { amount: 7, reference: 'plain' },
    ];
    let last = '';
    for (const [i, credit] of credits.entries()) {
      const res = await api('POST', `/v1/accounts/${accountId}/transactions`, {
        ...alice,
        key: `e2e-exports-credit-${i}`,
        body: { type: 'credit', currency: 'EUR', ...credit },
      });
      expect(res.status).toBe(201);
      last = String(res.json.id);
    }
    // A reversal (docs/contract.md §16): the file shows its reversalOf and direction.
    const reversed = await api('POST', `/v1/accounts/${accountId}/transactions/${last}/reversals`, {
      ...alice,
      key: 'e2e-exports-reversal',
      body: {},
    });
    expect(reversed.status).toBe(201);

    created = await api('POST', `/v1/accounts/${accountId}/exports`, exportCall);

    expect(created.status).toBe(202);
    expect(created.json).toMatchObject({
      id: expect.stringMatching(UUID),
      accountId,
      format: 'csv',
      progress: 0,
      currentExecutionId: expect.stringMatching(UUID),
      executions: [
        expect.objectContaining({ lastSequence: 0, gaps: [], deadline: expect.any(String) }),
      ],
      executionsTruncated: false,
    });
    taskId = String(created.json.id);
    firstExecutionId = String(created.json.currentExecutionId);
    const balance = (await api('GET', `/v1/accounts/${accountId}`, alice)).json.balance;
    expect(balance).toBe(1_042 - EXPORT_FEE);
  });

  it('the worker writes the file and reports SUCCEEDED; the result URL downloads it', async () => {
    const task = await succeeded(taskId);
    expect(task.progress).toBe(100);

    const result = await api('GET', `/v1/tasks/${taskId}/result`, alice);
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({
      format: 'csv',
      url: expect.stringContaining(`/ledger-exports/exports/${taskId}/${firstExecutionId}.csv?`),
    });
    const expiresIn = Date.parse(String(result.json.urlExpiresAt)) - Date.now();
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000);

    const file = await download(String(result.json.url));
    expect(file.length).toBe(result.json.bytes);
    expect(createHash('sha256').update(file).digest('hex')).toBe(result.json.sha256);

    const [header, ...rows] = parseCsv(file.toString('utf8'));
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(Number(result.json.rows));
    // Rows and amounts equal the listing (oldest first in the file, newest first in the listing).
    const items = (await listing(accountId)).reverse();
    expect(rows.map((r) => [r[0], r[2], Number(r[3])])).toEqual(
      items.map((i) => [i.id, i.type, i.amount]),
    );
    // The formula guard neutralises a reference that a spreadsheet would evaluate.
    expect(rows.map((r) => r[6])).toContain('\'=HYPERLINK("http://x")');
    expect(rows.map((r) => r[6])).toContain('salary, "november"');
    // The ledger-depth columns (§14): metadata as JSON text, reversalOf as kind:id.
    const column = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
    const salary = rows.find((r) => r[6] === 'salary, "november"') ?? [];
    expect(JSON.parse(salary[column('metadata')] ?? '')).toEqual({ memo: 'a, "b"' });
    const reversal = rows.find((r) => r[2] === 'reversal') ?? [];
    expect(reversal[column('reversalOf')]).toMatch(/^entry:[0-9a-f-]{36}$/);
    expect(reversal[column('direction')]).toBe('debit');
  });

  it('duplicates of the job produce one object and one SUCCEEDED', async () => {
    const before = (await api('GET', `/v1/tasks/${taskId}`, alice)).json;
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'export-jobs' }));
    const job = {
      taskId,
      executionId: firstExecutionId,
      accountId,
      format: 'csv',
      callbackPath: '/v1/callbacks/export-worker',
    };
    for (let i = 0; i < 2; i++) {
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify(job) }));
    }
    await expect
      .poll(() => stack.output().match(/export job skipped .*"reason":"finished"/g)?.length ?? 0, {
        timeout: 10_000,
      })
      .toBe(2);

    const after = (await api('GET', `/v1/tasks/${taskId}`, alice)).json;
    expect(after.executions).toEqual(before.executions);
    const objects = await s3.send(
      new ListObjectsV2Command({ Bucket: 'ledger-exports', Prefix: `exports/${taskId}/` }),
    );
    expect(objects.Contents?.map((o) => o.Key)).toEqual([
      `exports/${taskId}/${firstExecutionId}.csv`,
    ]);
  });

  it('a rerun writes a new object; the result follows the current execution', async () => {
    const rerun = await api('POST', `/v1/tasks/${taskId}/reruns`, {
      ...alice,
      key: 'e2e-rerun-1',
      body: {},
    });
    expect(rerun.status).toBe(202);
    const secondExecutionId = String(rerun.json.currentExecutionId);
    expect(secondExecutionId).not.toBe(firstExecutionId);

    await succeeded(taskId);
    const result = await api('GET', `/v1/tasks/${taskId}/result`, alice);
    expect(String(result.json.url)).toContain(`/exports/${taskId}/${secondExecutionId}.csv?`);
  });

  it('JSON Lines: each line is a listing item verbatim', async () => {
    const res = await api('POST', `/v1/accounts/${accountId}/exports`, {
      ...alice,
      key: 'e2e-export-json',
      body: { format: 'json' },
    });
    expect(res.status).toBe(202);
    const jsonTask = String(res.json.id);
    await succeeded(jsonTask);
    const result = await api('GET', `/v1/tasks/${jsonTask}/result`, alice);
    expect(result.json.format).toBe('json');
    const text = (await download(String(result.json.url))).toString('utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const items = (await listing(accountId)).reverse();
    // The snapshot is the worker's start: this export's own fee is in it, later entries are not.
    expect(lines).toEqual(items.slice(0, lines.length));
    expect(lines).toHaveLength(Number(result.json.rows));
  });

  it('a retried export replays the first answer (no second fee, no second task)', async () => {
    const replay = await api('POST', `/v1/accounts/${accountId}/exports`, exportCall);
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(created.text);
  });

  it('`npm run cli -- demo` ends by downloading the file and printing its first lines', async () => {
    const demo = await cli('demo', '--timeout', '20');

    expect(demo.code, demo.output).toBe(0);
    expect(demo.output).toMatch(/export fee 250/);
    // The split payment and its refund (docs/contract.md §16).
    expect(demo.output).toContain(
      'split a payment of 250 EUR: seller, fee and tax got 200, 37, 13',
    );
    expect(demo.output).toMatch(/refunded it: reversal [0-9a-f-]{36} moved all 250 back/);
    expect(demo.output).toMatch(/"sha256": "[0-9a-f]{64}"/);
    expect(demo.output).toContain(`   ${CSV_COLUMNS.join(',')}`);
    expect(demo.output).toMatch(/ {3}[0-9a-f-]{36},\S+,credit,2500,EUR,http,cli demo,/);
  });

  it('stops on SIGINT, export worker included', async () => {
    expect(await stack.interrupt()).toBe(0);
    expect(stack.output()).toMatch(/stopped SQS poller \(export-jobs\)/);
    await expect.poll(() => groupAlive(stack.pid), { timeout: 10_000 }).toBe(false);
  });
});

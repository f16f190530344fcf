import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asReadmeSample, blocksUnder, replaceReadmeBlock } from './support/readme';
import { runScript } from './support/run-script';
import { type LocalStack, startLocalStack } from './support/stack';

/**
 * The README, word for word, against `npm start` with its defaults (on free ports): its curls
 * run as a newcomer pastes them, the comments that state balances hold, and its sample outputs
 * are what the commands print (normalized by `asReadmeSample`). A change that alters an output
 * fails here until the README shows the new one.
 */
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack();
});

afterAll(async () => {
  if (stack) await stack.interrupt();
});

/** Runs README shell blocks in one bash, on the stack's port; `# balance B, available A` checked. */
function bash(script: string): Promise<{ code: number | null; output: string }> {
  const annotated = script
    .replaceAll('http://127.0.0.1:3000', stack.base)
    .replace(
      /^(curl .*?)\s+# (balance -?\d+, available -?\d+)$/gm,
      (_line, command: string, claim: string) => `${command}; echo; echo "@@ ${claim}"`,
    );
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', annotated], {
      cwd: process.cwd(),
      // The CLI commands a block runs find the stack as a reader's shell would after `npm start`.
      env: { ...process.env, PORT: String(stack.httpPort), SQS_PORT: String(stack.sqsPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** Every top-level JSON object in the output, in order (curl prints bodies without a newline). */
function jsonObjects(output: string): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < output.length; i++) {
    const ch = output[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"' && depth > 0) inString = true;
    else if (ch === '{' && depth++ === 0) start = i;
    else if (ch === '}' && depth > 0 && --depth === 0) {
      objects.push(JSON.parse(output.slice(start, i + 1)) as Record<string, unknown>);
    }
  }
  return objects;
}

/** Each `@@ balance B, available A` claim against the account JSON printed just before it. */
function claims(output: string) {
  const parts = output.split(/^@@ /m);
  return parts.slice(1).map((part, i) => {
    const claim = /^balance (-?\d+), available (-?\d+)/.exec(part);
    const account = jsonObjects(parts[i] ?? '').at(-1) ?? {};
    return {
      claimed: [Number(claim?.[1]), Number(claim?.[2])],
      actual: [account.balance, account.available],
    };
  });
}

describe('README walkthrough against the local stack', () => {
  it('"Try it", transfers and holds, then ledger depth: every command succeeds and every stated balance holds', async () => {
    const [tryIt = ''] = blocksUnder('Try it', 'sh');
    const [sample = '{}'] = blocksUnder('Try it', 'json');
    const transfersAndHolds = blocksUnder('Transfers and holds', 'sh');
    expect(transfersAndHolds).toHaveLength(2);
    const depth = blocksUnder('Ledger transactions, reversals, overdraft and closing', 'sh');
    expect(depth).toHaveLength(2);
    // Sent twice, as a caller retrying it would: the batch replays (docs/contract.md §25).
    const [batch = ''] = blocksUnder('Batches: many operations in one request', 'sh');

    const { code, output } = await bash(
      [tryIt, ...transfersAndHolds, ...depth, 'echo', batch, 'echo', batch].join('\n'),
    );

    expect(code, output).toBe(0);
    // The credit's answer has the sample's fields, with the sample's values where they are fixed.
    const credit = jsonObjects(output).find((o) => o.type === 'credit') ?? {};
    const shown = JSON.parse(sample.replace(/"[0-9a-f]{8}-…"/g, '"…"')) as Record<string, unknown>;
    expect(Object.keys(credit).sort()).toEqual(Object.keys(shown).sort());
    for (const field of ['type', 'amount', 'currency', 'origin']) {
      expect(credit[field], field).toEqual(shown[field]);
    }
    expect(output).toContain('HTTP/1.1 201 Created');
    expect(output).toMatch(/"code":"hold_not_active"/);
    // Ledger depth (docs/contract.md §16, §17): the split, its refund, the overdraft, the close.
    const objects = jsonObjects(output);
    const listed = objects.flatMap((o) => (o.items as Record<string, unknown>[] | undefined) ?? []);
    expect(listed.some((e) => e.type === 'ledger_credit' && e.amount === 650)).toBe(true);
    expect(objects.find((o) => o.reversalOf)).toMatchObject({ amount: 800 });
    expect(objects.find((o) => o.legs && o.reversedAmount !== undefined)).toMatchObject({
      reversedAmount: 800,
    });
    expect(objects.some((o) => o.status === 'closed')).toBe(true);
    expect(output).toMatch(/"code":"account_closed"/);
    // Batches: the payout credits, the oversized debit is refused alone; the retry, same bytes.
    const batches = output.match(/^\{"mode":"independent".*$/gm) ?? [];
    expect(batches).toHaveLength(2);
    expect(batches[1]).toBe(batches[0]);
    const results = (JSON.parse(batches[0] ?? '{}') as { results?: unknown[] }).results;
    expect(results).toMatchObject([
      { key: 'payout-1', status: 201, body: { type: 'credit', amount: 1250 } },
      { key: 'payout-2', status: 409, body: { code: 'insufficient_funds' } },
    ]);
    const stated = claims(output);
    expect(stated.length).toBeGreaterThanOrEqual(3);
    for (const { claimed, actual } of stated) expect(actual).toEqual(claimed);
  });

  it('"Deferred credits": three credits accepted at once, posted by the folder (docs/contract.md §24)', async () => {
    const [deferred = ''] = blocksUnder(
      'Deferred credits: a fee account that many payers credit at once',
      'sh',
    );
    const { code, output } = await bash(deferred);

    expect(code, output).toBe(0);
    expect(output.match(/^201$/gm)).toHaveLength(3);
    const stated = claims(output);
    expect(stated).toHaveLength(1);
    for (const { claimed, actual } of stated) expect(actual).toEqual(claimed);
    const page = jsonObjects(output).find((o) => Array.isArray(o.items));
    expect(page?.items).toMatchObject([{ type: 'credit', amount: 150, status: 'posted' }]);
  });

  it('"The journal": the journal and as-of curls answer the Try it credit (docs/contract.md §15)', async () => {
    const [tryIt = ''] = blocksUnder('Try it', 'sh');
    const [journal = ''] = blocksUnder('The journal: every change, in commit order', 'sh');
    const [sample = '{}'] = blocksUnder('The journal: every change, in commit order', 'json');
    // A reader pastes the journal commands after the walkthrough; the projector needs a moment.
    const { code, output } = await bash([tryIt, 'sleep 2', journal].join('\n'));

    expect(code, output).toBe(0);
    const objects = jsonObjects(output);
    const page = objects.find((o) => Array.isArray(o.items)) as
      | { items: Record<string, unknown>[]; nextAfterSequence: unknown }
      | undefined;
    const shown = JSON.parse(
      sample.replace(/"[0-9a-f]{8}-…"/g, '"…"').replace(/"2026-[^"]*"/g, '"…"'),
    );
    expect(Object.keys(page?.items[0] ?? {}).sort()).toEqual(Object.keys(shown.items[0]).sort());
    // The walkthrough's account (the first test went on with transfers and holds on it).
    const items = page?.items ?? [];
    expect([items[0]?.sequence, items[0]?.kind, items[0]?.balanceAfter]).toEqual([
      1,
      'credit',
      2500,
    ]);
    expect(page?.nextAfterSequence).toBeNull();
    const last = items.at(-1);
    const balances = objects.find((o) => 'asOf' in o);
    expect(balances).toMatchObject({
      balance: last?.balanceAfter,
      available: last?.availableAfter,
      sequence: items.length,
    });
  });

  it('"Month end": backdated debit, statement, CLI statement and a period close (docs/contract.md §26)', async () => {
    const [month = ''] = blocksUnder(
      'Month end: effective dates, statements and closed periods',
      'sh',
    );
    const { code, output } = await bash(month);

    expect(code, output).toBe(0);
    const objects = jsonObjects(output);
    const statement = objects.find((o) => 'openingBalance' in o);
    expect(statement).toMatchObject({
      openingBalance: 0,
      totalCredits: 1000,
      totalDebits: 400,
      closingBalance: 600,
      nextCursor: null,
    });
    const items = (statement?.items ?? []) as { type: string; amount: number }[];
    expect(items.map((i) => [i.type, i.amount])).toEqual([
      ['debit', 400],
      ['credit', 1000],
    ]);
    expect(output).toContain('closing balance 600');
    expect(objects.find((o) => 'closedThrough' in o)?.closedThrough).toMatch(/^20\d\d-/);
    expect(objects.at(-1)).toMatchObject({ status: 409, code: 'period_closed' });
  });

  // Waits for a gap's re-fetch request, each README command a process of its own: 17 s alone,
  // more beside the other e2e files.
  it('"Gaps": a skipped number is requested on ledger-gaps-tap and closes when re-sent (docs/contract.md §18)', {
    timeout: 120_000,
  }, async () => {
    const [tryIt = ''] = blocksUnder('Try it', 'sh');
    const [gaps = ''] = blocksUnder('Gaps: re-fetch requests and waivers', 'sh');
    const { code, output } = await bash([tryIt, gaps].join('\n'));

    expect(code, output).toBe(0);
    expect(output).toContain('ledger.gap.refetch.v1');
    expect(output).toMatch(/"missing":\s*\[\s*2,\s*3\s*\]/);
    const listings = jsonObjects(output).filter((o) => Array.isArray(o.items));
    const demo = (listing: Record<string, unknown> | undefined) =>
      ((listing?.items ?? []) as { source: string; gaps: number[]; gapDetails: unknown[] }[]).find(
        (item) => item.source === 'urn:demo:gaps',
      );
    expect(demo(listings.at(-2))?.gaps).toEqual([2, 3]);
    expect(demo(listings.at(-2))?.gapDetails).toHaveLength(2);
    expect(demo(listings.at(-1))).toMatchObject({ gaps: [], gapDetails: [], lastSequence: 4 });
  });

  it('`npm run cli -- demo` prints what the README shows', async () => {
    const [shown = ''] = blocksUnder('Exports, the outbox and signed callbacks', 'text');

    const { code, output } = await runScript('cli/main.ts', ['demo'], {
      PORT: String(stack.httpPort),
      SQS_PORT: String(stack.sqsPort),
    });

    expect(code, output).toBe(0);
    const sample = asReadmeSample(output, { http: stack.httpPort, sqs: stack.sqsPort });
    // UPDATE_README=1 npx vitest run --project e2e test/e2e/readme.test.ts writes it instead.
    if (process.env.UPDATE_README === '1') replaceReadmeBlock(shown, `${sample.trim()}\n`);
    else expect(sample.trim()).toBe(shown.trim());
  });
});

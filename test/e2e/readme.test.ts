import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpointIfAny } from '../support/dynamo-lease';
import {
  asReadmeSample,
  blocksUnder,
  README,
  replaceReadmeBlock,
  shellBlocks,
} from './support/readme';
import { claims, jsonObjects, runWalkthrough, type WalkthroughRun } from './support/readme-run';
import { type LocalStack, startLocalStack } from './support/stack';

/**
 * The README, word for word, top to bottom, against `npm start` with its defaults (on free
 * ports): every ```sh block runs in reading order in one shell, as a newcomer pastes them, except
 * those marked `<!-- readme-test: not run, <why> -->` (they start another stack). Every id is
 * captured by `field`, which fails on an answer without it, so a step that breaks stops the run
 * there. The comments that state balances hold, and the sample outputs are what the commands
 * print (normalized by `asReadmeSample`). A change that alters an output fails here until the
 * README shows the new one.
 */
let stack: LocalStack;
let run: WalkthroughRun;
const blocks = shellBlocks();
const walkthrough = blocks.filter((b) => b.notRun === undefined);

beforeAll(async () => {
  // The operator commands (reconcile, verify) read the table as `npm start` left it for them.
  const endpoint = dynamoEndpointIfAny();
  const table: Record<string, string> = endpoint
    ? { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: `readme-${randomUUID()}` }
    : {};
  stack = await startLocalStack(table);
  run = await runWalkthrough(walkthrough, stack, {
    DYNAMODB_PORT: String(stack.dynamoPort),
    ...table,
  });
}, 300_000);

afterAll(async () => {
  if (stack) await stack.interrupt();
});

/** What the blocks under a heading printed, in order, joined. */
const printedUnder = (heading: string) =>
  run.blocks
    .filter((b) => b.heading === heading)
    .map((b) => b.output)
    .join('\n');

describe('README walkthrough, every shell block in order, against the local stack', () => {
  it('runs every block to the end, and leaves out only blocks that start another stack', () => {
    expect(run.code, run.output).toBe(0);
    expect(run.blocks).toHaveLength(walkthrough.length);
    expect(walkthrough.length).toBeGreaterThanOrEqual(18);
    const left = blocks.filter((b) => b.notRun !== undefined);
    expect(left.map((b) => b.notRun)).toEqual(left.map(() => expect.stringMatching(/stack|AWS/)));
    expect(left.length).toBeLessThanOrEqual(6);
    // Nothing captures an id in a way that can silently set it to "undefined".
    expect(README).not.toMatch(/node -pe/);
    expect(README).not.toMatch(/date -u -d|date -d /);
  });

  it('states balances that hold wherever a comment says "balance B, available A"', () => {
    const stated = claims(run.output);
    expect(stated.length).toBeGreaterThanOrEqual(4);
    for (const { claimed, actual } of stated) expect(actual).toEqual(claimed);
  });

  it('"Try it": the credit answers the sample\'s fields', () => {
    const [sample = '{}'] = blocksUnder('Try it', 'json');
    const output = printedUnder('Try it');
    expect(output).toContain('HTTP/1.1 201 Created');
    const credit = jsonObjects(output).find((o) => o.type === 'credit') ?? {};
    const shown = JSON.parse(sample.replace(/"[0-9a-f]{8}-…"/g, '"…"')) as Record<string, unknown>;
    expect(Object.keys(credit).sort()).toEqual(Object.keys(shown).sort());
    for (const field of ['type', 'amount', 'currency', 'origin']) {
      expect(credit[field], field).toEqual(shown[field]);
    }
  });

  it('transfers, holds, the SQS transfer, the split, its refund, overdraft and close', () => {
    const holds = printedUnder('Transfers and holds');
    expect(holds).toMatch(/"code":"hold_not_active"/);
    expect(holds).toMatch(/^sent /m);
    const objects = jsonObjects(
      printedUnder('Ledger transactions, reversals, overdraft and closing'),
    );
    const listed = objects.flatMap((o) => (o.items as Record<string, unknown>[] | undefined) ?? []);
    expect(listed.some((e) => e.type === 'ledger_credit' && e.amount === 650)).toBe(true);
    expect(objects.find((o) => o.reversalOf)).toMatchObject({ amount: 800 });
    expect(objects.find((o) => o.legs && o.reversedAmount !== undefined)).toMatchObject({
      reversedAmount: 800,
    });
    expect(objects.some((o) => o.status === 'closed')).toBe(true);
    expect(objects.at(-1)).toMatchObject({ code: 'account_closed' });
  });

  it('"Currency exchange": one transaction, each currency balanced, rates echoed (§35)', () => {
    const objects = jsonObjects(printedUnder('Currency exchange: one transaction, two currencies'));
    const exchange = objects.find((o) => o.legs);
    expect(exchange).toMatchObject({
      reference: 'fx 1',
      rates: [{ base: 'USD', quote: 'EUR', rate: '0.9213' }],
    });
    expect(exchange).not.toHaveProperty('currency');
    expect(objects.filter((o) => o.balance !== undefined).map((o) => o.currency)).toEqual([
      'USD',
      'USD',
      'EUR',
      'EUR',
    ]);
  });

  it('"Batches": the payout credits, the oversized debit is refused alone, the retry replays; ops.json imports', () => {
    const output = printedUnder('Batches: many operations in one request');
    const batches = output.match(/^\{"mode":"independent".*$/gm) ?? [];
    expect(batches).toHaveLength(2);
    expect(batches[1]).toBe(batches[0]);
    expect(JSON.parse(batches[0] ?? '{}').results).toMatchObject([
      { key: 'payout-1', status: 201, body: { type: 'credit', amount: 1250 } },
      { key: 'payout-2', status: 409, body: { code: 'insufficient_funds' } },
    ]);
    const imported = jsonObjects(output).filter((o) => typeof o.key === 'string' && 'status' in o);
    expect(imported.map((r) => [r.key, r.status])).toEqual([
      ['payroll-1', 201],
      ['payroll-2', 201],
    ]);
  });

  it('"Deferred credits": three credits accepted at once, posted by the folder (§24)', () => {
    const output = printedUnder('Deferred credits: a fee account that many payers credit at once');
    expect(output.match(/^201$/gm)).toHaveLength(3);
    const page = jsonObjects(output).find((o) => Array.isArray(o.items));
    expect(page?.items).toMatchObject([{ type: 'credit', amount: 150, status: 'posted' }]);
  });

  it('"The journal": the journal and as-of balances of the Try it account (§15)', () => {
    const objects = jsonObjects(printedUnder('The journal: every change, in commit order'));
    const page = objects.find((o) => Array.isArray(o.items)) as
      | { items: Record<string, unknown>[]; nextAfterSequence: unknown }
      | undefined;
    const items = page?.items ?? [];
    expect([items[0]?.sequence, items[0]?.kind, items[0]?.balanceAfter]).toEqual([
      1,
      'credit',
      2500,
    ]);
    expect(page?.nextAfterSequence).toBeNull();
    // As of the last whole second: at most the records listed, and what the record there says.
    const asOf = objects.find((o) => 'asOf' in o) as { sequence: number; balance: unknown };
    expect(asOf.sequence).toBeLessThanOrEqual(items.length);
    expect(asOf.balance).toEqual(items[asOf.sequence - 1]?.balanceAfter);
  });

  it('"Month end": backdated debit, statement, CLI statement and a period close (§26)', () => {
    const output = printedUnder('Month end: effective dates, statements and closed periods');
    const objects = jsonObjects(output);
    expect(objects.find((o) => 'openingBalance' in o)).toMatchObject({
      openingBalance: 0,
      totalCredits: 1000,
      totalDebits: 400,
      closingBalance: 600,
      nextCursor: null,
      items: [
        { type: 'debit', amount: 400 },
        { type: 'credit', amount: 1000 },
      ],
    });
    expect(output).toContain('closing balance 600');
    expect(objects.find((o) => 'closedThrough' in o)?.closedThrough).toMatch(/^20\d\d-/);
    expect(objects.at(-1)).toMatchObject({ status: 409, code: 'period_closed' });
  });

  it('"Gaps": a skipped number is requested on ledger-gaps-tap and closes when re-sent (§18)', () => {
    const output = printedUnder('Gaps: re-fetch requests and waivers');
    expect(output).toContain('ledger.gap.refetch.v1');
    expect(output).toMatch(/"missing":\s*\[\s*2,\s*3\s*\]/);
    const listings = jsonObjects(output).filter((o) => Array.isArray(o.items));
    const demo = (listing: Record<string, unknown> | undefined) =>
      ((listing?.items ?? []) as { source: string; gaps: number[] }[]).find(
        (item) => item.source === 'urn:demo:gaps',
      );
    expect(demo(listings.at(-2))?.gaps).toEqual([2, 3]);
    expect(demo(listings.at(-1))).toMatchObject({ gaps: [], lastSequence: 4 });
  });

  it('`npm run cli -- demo` prints what the README shows; a callback reports on a task', () => {
    const [shown = ''] = blocksUnder('Exports, the outbox and signed callbacks', 'text');
    const block = run.blocks.find((b) => b.output.includes('1. account '))?.output ?? '';
    // What the demo printed, without npm's own `> idempotent-ledger@… cli` header.
    const printed = block.replace(/^> .*\n/gm, '').replace(/^\n+/, '');
    const sample = asReadmeSample(printed, { http: stack.httpPort, sqs: stack.sqsPort });
    // UPDATE_README=1 npx vitest run --project e2e test/e2e/readme.test.ts writes it instead.
    if (process.env.UPDATE_README === '1') replaceReadmeBlock(shown, `${sample.trim()}\n`);
    else expect(sample.trim()).toBe(shown.trim());
    expect(printedUnder('CLI (`npm run cli`)')).toMatch(/"outcome": "(applied|stale)"/);
  });
});

import { randomUUID } from 'node:crypto';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/run';
import type { ReownPort } from '../../../functions/domain/reown/port';
import { ReownService } from '../../../functions/domain/reown/service';
import { createReownStore } from '../../../functions/dynamodb/reown/store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { getItem } from '../../../functions/dynamodb/table/reads';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * docs/contract.md §30: `reown` holds a lease per old owner and moves each item only while it
 * is the old owner's, so two runs at once — to the same target or another — never leave an
 * account's items split across owners.
 */

const fixture = useLedgerFixture();
const { api } = fixture;
const PRINCIPALS = ['alice', 'bob', 'carol'];

async function reown(args: string[]) {
  const errors: string[] = [];
  const code = await runCli(
    ['reown', ...args, '--dynamodb', dynamoEndpoint(), '--table', fixture.tableName],
    {
      env: {},
      out: () => {},
      err: (line) => errors.push(line),
      fetch,
      signal: new AbortController().signal,
    },
  );
  return { code, err: errors.join('\n') };
}

/** Alice's accounts A and B, linked by a transfer, with two holds on A. */
async function world() {
  const a = await api.account(10_000);
  const b = await api.account(1_000);
  const holds: string[] = [];
  for (const amount of [300, 200]) {
    const body = { amount, currency: 'EUR', expiresInSeconds: 3600 };
    const res = await api.post(`/v1/accounts/${a}/holds`, body, randomUUID(), 'alice');
    expect(res.statusCode, res.body).toBe(201);
    holds.push(String(bodyOf(res).id));
  }
  const transfer = { fromAccountId: a, toAccountId: b, amount: 700, currency: 'EUR' };
  const res = await api.post('/v1/transfers', transfer);
  expect(res.statusCode, res.body).toBe(201);
  const paths = [
    `/v1/accounts/${a}`,
    `/v1/accounts/${b}`,
    ...holds.map((id) => `/v1/holds/${id}`),
    `/v1/transfers/${String(bodyOf(res).id)}`,
  ];
  return { a, b, paths };
}

/** For every item, the principals it answers 200: one each, the same for all, when not split. */
async function owners(paths: readonly string[]) {
  const result: Record<string, string[]> = {};
  for (const path of paths) {
    const who: string[] = [];
    for (const p of PRINCIPALS) if ((await api.get(path, p)).statusCode === 200) who.push(p);
    result[path] = who;
  }
  return result;
}
const allOwnedBy = (paths: readonly string[], owner: string) =>
  Object.fromEntries(paths.map((path) => [path, [owner]]));

/** A port whose run stops after its first page of items until `gate` opens. */
function pausedAfterFirstPage(port: ReownPort, gate: Promise<void>): ReownPort {
  let paused = false;
  return {
    ...port,
    async moveOwned(...args) {
      const page = await port.moveOwned(...args);
      if (!paused) {
        paused = true;
        await gate;
      }
      return page;
    },
  };
}

async function until(condition: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('timed out waiting');
}

describe('concurrent reown runs (docs/contract.md §30)', () => {
  it('two runs of the same accounts at once: one moves them, the other is refused', async () => {
    const { a, b, paths } = await world();
    const runs = await Promise.all([
      reown(['--account', a, '--to', 'bob', '--with-linked']),
      reown(['--account', b, '--to', 'bob', '--with-linked']),
    ]);
    expect(runs.some((run) => run.code === 0)).toBe(true);
    for (const run of runs) if (run.code !== 0) expect(run.err).toContain('holds their lease');
    expect(await owners(paths)).toEqual(allOwnedBy(paths, 'bob'));
  });

  it('a run to another owner racing one in progress is refused; nothing splits', async () => {
    const { a, b, paths } = await world();
    const port = createReownStore({ client: fixture.client, tableName: fixture.tableName });
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const first = new ReownService(pausedAfterFirstPage(port, gate)).run({
      accountId: a,
      to: 'bob',
      withLinked: true,
    });
    // Wait until the first run has moved its holds (it pauses there).
    await until(async () => (await api.get(paths[2] ?? '', 'bob')).statusCode === 200);
    const second = await new ReownService(port).run({
      accountId: b,
      to: 'carol',
      withLinked: true,
    });
    expect(second).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'lease_held', lease: { from: 'alice', to: 'bob' } },
    });
    open();
    expect((await first).kind).toBe('done');
    expect(await owners(paths)).toEqual(allOwnedBy(paths, 'bob'));
    expect(await getItem(fixture.client, fixture.tableName, keys.reownLease('alice'))).toBe(
      undefined,
    );
  });

  it('a run whose lease was taken over after it expired moves no item moved since', async () => {
    const { a, b, paths } = await world();
    const port = createReownStore({ client: fixture.client, tableName: fixture.tableName });
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const stalled = new ReownService(pausedAfterFirstPage(port, gate)).run({
      accountId: a,
      to: 'bob',
      withLinked: true,
    });
    await until(async () => (await api.get(paths[2] ?? '', 'bob')).statusCode === 200);
    // An hour later its lease has expired. Another target must wait for the run to finish…
    const later = () => new Date(Date.now() + 3_600_000);
    const elsewhere = await new ReownService(port, { clock: later }).run({
      accountId: b,
      to: 'carol',
      withLinked: true,
    });
    expect(elsewhere).toMatchObject({ refusal: { kind: 'lease_held', lease: { to: 'bob' } } });
    // …a run of the same pair takes the lease over and finishes; then bob hands all to carol.
    const same = { accountId: b, to: 'bob', withLinked: true };
    expect((await new ReownService(port, { clock: later }).run(same)).kind).toBe('done');
    const onward = await new ReownService(port).run({
      accountId: b,
      to: 'carol',
      withLinked: true,
    });
    expect(onward).toMatchObject({ kind: 'done' });
    open();
    // The stalled run wakes up: nothing is alice's any more, and the accounts are carol's.
    expect(await stalled).toMatchObject({ kind: 'refused', refusal: { kind: 'owner_changed' } });
    expect(await owners(paths)).toEqual(allOwnedBy(paths, 'carol'));
  });

  it('the CLI refuses while a lease is held and takes over an expired one', async () => {
    const { a, paths } = await world();
    const lease = (expiresAt: string) =>
      fixture.client.send(
        new PutItemCommand({
          TableName: fixture.tableName,
          Item: marshall({
            ...keys.reownLease('alice'),
            from: 'alice',
            to: 'carol',
            runId: 'crashed-run',
            expiresAt,
          }),
        }),
      );
    await lease(new Date(Date.now() + 600_000).toISOString());
    const refused = await reown(['--account', a, '--to', 'bob', '--with-linked']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('another re-own moves the accounts of "alice" (to "carol"');
    expect(refused.err).toContain('holds their lease until');
    expect(await owners(paths)).toEqual(allOwnedBy(paths, 'alice'));

    // Expired: a run to carol (the crashed run's target) takes it over.
    await lease(new Date(Date.now() - 1_000).toISOString());
    const run = await reown(['--account', a, '--to', 'carol', '--with-linked']);
    expect(run.code, run.err).toBe(0);
    expect(await owners(paths)).toEqual(allOwnedBy(paths, 'carol'));
  });
});

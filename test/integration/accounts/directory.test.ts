import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { accountsBackfillCommand } from '../../../cli/commands/accounts/backfill';
import { runCli } from '../../../cli/run';
import { createAccountReader } from '../../../console/server/accounts/reader';
import { createIntakeReader } from '../../../console/server/intake/intake';
import { ACCOUNTS_PER_PAGE, type AccountSearch } from '../../../console/shared/api';
import { ValidationError } from '../../../functions/domain/shared/errors';
import { backfillAccountDirectory } from '../../../functions/dynamodb/accounts/backfill';
import { DirectoryIndexMissing } from '../../../functions/dynamodb/accounts/directory';
import { ACCOUNT_INDEX } from '../../../functions/dynamodb/table/account-index';
import { keys } from '../../../functions/dynamodb/table/keys';
import { ensureLedgerTable } from '../../../local/services/dynamodb/table';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * The console's account directory (docs/contract.md §31) on DynamoDB Local: "most recent" and
 * the owner / name-prefix search read the directory's indexes a page at a time (no account
 * skipped or listed twice across pages), in any case; accounts from before the directory are
 * listed once `accounts-backfill` ran, and a second run finds nothing.
 */
const fixture = useLedgerFixture();
const { api } = fixture;

const reader = (tableName = fixture.tableName) => {
  const options = { client: fixture.client, tableName, clock: () => new Date() };
  return createAccountReader({
    ...options,
    gapRefetchAfterSeconds: 60,
    intake: createIntakeReader(options),
  });
};

async function named(name: string, owner: string): Promise<string> {
  const res = await api.post('/v1/accounts', { currency: 'EUR', name }, randomUUID(), owner);
  if (res.statusCode !== 201) throw new Error(`account: ${res.body}`);
  return String(bodyOf(res).id);
}

/** Every page of a listing, following nextCursor. */
async function allPages(read: (cursor?: string) => Promise<AccountSearch>) {
  const pages: AccountSearch[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 20);
  return pages;
}

/** Where the CLI's operator commands find this file's table. */
async function tableArgs(): Promise<string[]> {
  const endpoint = await fixture.client.config.endpoint?.();
  if (!endpoint) throw new Error('the fixture has no endpoint');
  const dynamodb = `${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}`;
  return ['--table', fixture.tableName, '--dynamodb', dynamodb];
}

const cliContext = (lines: string[]) => ({
  env: {},
  out: (line: string) => lines.push(line),
  err: (line: string) => lines.push(line),
  fetch,
  signal: new AbortController().signal,
});

const OWNER = `Dir-Owner-${randomUUID().slice(0, 8)}`;
const OTHER = `dir-other-${randomUUID().slice(0, 8)}`;
const created: { id: string; owner: string; name: string }[] = [];

describe('console: the account directory', () => {
  it('lists the most recent accounts newest first, a page at a time, each once', async () => {
    // 24 of one owner, 3 of another whose names start like a word of the first's.
    for (let i = 0; i < 24; i++) {
      const name = `Ledger ${String(i).padStart(2, '0')}`;
      created.push({ id: await named(name, OWNER), owner: OWNER, name });
    }
    for (const name of ['Zeta one', 'zeta two', 'ZETA three']) {
      created.push({ id: await named(name, OTHER), owner: OTHER, name });
    }
    const pages = await allPages((cursor) => reader().recent(cursor));
    expect(pages[0]?.items).toHaveLength(ACCOUNTS_PER_PAGE);
    const listed = pages.flatMap((page) => page.items);
    expect(listed.map((a) => a.id).sort()).toEqual(created.map((a) => a.id).sort());
    const times = listed.map((a) => a.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(pages.at(-1)?.nextCursor).toBeUndefined();
  });

  it("finds an owner's accounts in any case, then names by prefix in any case", async () => {
    const byOwner = await allPages((cursor) => reader().search(OWNER.toUpperCase(), cursor));
    expect(byOwner[0]?.items).toHaveLength(ACCOUNTS_PER_PAGE);
    const owned = byOwner.flatMap((page) => page.items);
    expect(owned.map((a) => a.id).sort()).toEqual(
      created
        .filter((a) => a.owner === OWNER)
        .map((a) => a.id)
        .sort(),
    );

    const zeta = await reader().search('zEtA');
    expect(zeta.items.map((a) => a.name)).toEqual(['Zeta one', 'ZETA three', 'zeta two']);
    expect(zeta.nextCursor).toBeUndefined();
    const prefix = await reader().search('zeta t');
    expect(prefix.items.map((a) => a.name)).toEqual(['ZETA three', 'zeta two']);
    // A name's middle is not its start; an unknown owner finds nothing.
    await expect(reader().search('three')).resolves.toEqual({ items: [] });
    await expect(reader().search(`nobody-${randomUUID()}`)).resolves.toEqual({ items: [] });
  });

  it('finds an account by id, and refuses a cursor it did not give', async () => {
    const [first] = created;
    if (!first) throw new Error('no accounts created');
    const found = await reader().search(first.id.toUpperCase());
    expect(found.items.map((a) => a.id)).toEqual([first.id]);
    await expect(reader().recent('not-a-cursor')).rejects.toThrow(ValidationError);
    await expect(reader().search(OWNER, 'e30x')).rejects.toThrow(ValidationError);
  });

  it('a re-own moves the account to its new owner in the owner search', async () => {
    const from = `Mover-${randomUUID().slice(0, 8)}`;
    const to = `Taker-${randomUUID().slice(0, 8)}`;
    const id = await named('Moving one', from);
    const lines: string[] = [];
    const code = await runCli(['reown', '--account', id, '--to', to, ...(await tableArgs())], {
      ...cliContext(lines),
      env: {},
    });
    expect(code, lines.join('\n')).toBe(0);
    await expect(reader().search(from)).resolves.toEqual({ items: [] });
    const found = await reader().search(to.toLowerCase());
    expect(found.items.map((a) => [a.id, a.ownerId])).toEqual([[id, to]]);
  });

  it('accounts-backfill puts accounts from before the directory into it, once', async () => {
    const old = [await named('Vintage one', OTHER), await named('Vintage two', OTHER)];
    // As written before the directory: none of its attributes.
    for (const id of old) {
      await fixture.client.send(
        new UpdateItemCommand({
          TableName: fixture.tableName,
          Key: marshall(keys.account(id)),
          UpdateExpression: 'REMOVE #s, #a, #o, #n',
          ExpressionAttributeNames: {
            '#s': ACCOUNT_INDEX.shardAttribute,
            '#a': ACCOUNT_INDEX.atAttribute,
            '#o': ACCOUNT_INDEX.ownerAttribute,
            '#n': ACCOUNT_INDEX.nameAttribute,
          },
        }),
      );
    }
    const recentIds = async () =>
      (await allPages((cursor) => reader().recent(cursor))).flatMap((p) =>
        p.items.map((a) => a.id),
      );
    expect(await recentIds()).not.toContain(old[0]);
    await expect(reader().search('vintage')).resolves.toEqual({ items: [] });

    const lines: string[] = [];
    const backfill = accountsBackfillCommand.run(await tableArgs(), cliContext(lines));
    await expect(backfill).resolves.toBe(0);
    expect(lines.at(-1)).toBe('done: 2 account(s) indexed');

    expect(await recentIds()).toEqual(expect.arrayContaining(old));
    const vintage = await reader().search('VINTAGE');
    expect(vintage.items.map((a) => a.id)).toEqual(old);
    const owned = (await allPages((c) => reader().search(OTHER, c))).flatMap((p) => p.items);
    expect(owned.map((a) => a.id)).toEqual(expect.arrayContaining(old));
    // Idempotent: nothing left to do.
    const again = await backfillAccountDirectory(
      { client: fixture.client, tableName: fixture.tableName },
      () => {},
    );
    expect(again).toEqual({ seen: 0, indexed: 0 });
  });

  it('on a table mid-upgrade, a missing index is a 503-worthy error naming it and the step', async () => {
    // A stage deployed with accountDirectoryIndexes=1: `accounts`, not yet `account-owners`.
    const tableName = `ledger-upgrade-${randomUUID()}`;
    await ensureLedgerTable(fixture.client, tableName, { stream: false, directoryIndexes: 1 });
    try {
      await expect(reader(tableName).recent()).resolves.toEqual({ items: [] });
      const search = reader(tableName).search('alice');
      await expect(search).rejects.toThrow(DirectoryIndexMissing);
      await expect(search).rejects.toMatchObject({
        code: 'unavailable',
        index: ACCOUNT_INDEX.owner,
        detail: expect.stringMatching(
          /"account-owners" is not on this table yet.*accountDirectoryIndexes.*accounts-backfill.*Upgrading to the account directory/,
        ) as unknown,
      });
    } finally {
      await fixture.client.send(new DeleteTableCommand({ TableName: tableName }));
    }
  });
});

import { randomUUID } from 'node:crypto';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../cli/run';
import { httpResponses } from '../../../functions/api/problems';
import { HoldService } from '../../../functions/domain/holds/service';
import { REOWN_STEPS } from '../../../functions/domain/reown/model';
import { ReownService } from '../../../functions/domain/reown/service';
import { createHoldStore } from '../../../functions/dynamodb/holds/store';
import { createMovementStore } from '../../../functions/dynamodb/movements/store';
import { createReownStore } from '../../../functions/dynamodb/reown/store';
import { keys } from '../../../functions/dynamodb/table/keys';
import { getItem } from '../../../functions/dynamodb/table/reads';
import { APP, callbackBody, SECRET, signedCallback } from '../../support/callbacks';
import { dynamoEndpoint } from '../../support/dynamo-lease';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * `npm run cli -- reown` on DynamoDB Local (docs/operations.md "Re-owning an account"): the
 * account and everything under it move — holds, tasks, transfers, then the account — so the old
 * principal gets 404 and the new one full control; idempotent, and resumable after an interrupt.
 */

const fixture = useLedgerFixture({
  config: { callbackApplicationId: APP },
  callbackSecrets: JSON.stringify({ [APP]: [SECRET] }),
  results: { exists: async () => true, presignGet: async (key) => `https://s3.example/${key}` },
});
const { app, api } = fixture;

/** Runs the CLI; `stopWhen` aborts the run (Ctrl-C) after the first line it matches. */
async function reown(args: string[], stopWhen?: RegExp) {
  const lines: string[] = [];
  const errors: string[] = [];
  const controller = new AbortController();
  const code = await runCli(
    ['reown', ...args, '--dynamodb', dynamoEndpoint(), '--table', fixture.tableName],
    {
      env: {},
      out: (line) => {
        lines.push(line);
        if (stopWhen?.test(line)) controller.abort();
      },
      err: (line) => errors.push(line),
      fetch,
      signal: controller.signal,
    },
  );
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

const place = async (accountId: string, amount: number, as = 'alice') => {
  const res = await api.post(
    `/v1/accounts/${accountId}/holds`,
    { amount, currency: 'EUR', expiresInSeconds: 3600 },
    randomUUID(),
    as,
  );
  expect(res.statusCode, res.body).toBe(201);
  return String(bodyOf(res).id);
};

/** Alice's world: A with holds and a failed export, B linked to A by a transfer, and C alone. */
async function aliceWorld() {
  const a = await api.account(10_000);
  const b = await api.account(1_000);
  const c = await api.account(500);
  const holds = [await place(a, 300), await place(a, 200)];
  const exported = await api.post(`/v1/accounts/${a}/exports`, { format: 'csv' });
  const task = bodyOf(exported);
  const failed = await app(
    signedCallback(
      callbackBody({ executionId: String(task.currentExecutionId), sequence: 1, status: 'FAILED' }),
    ),
  );
  expect(failed.statusCode).toBe(200);
  const transfer = await api.post('/v1/transfers', {
    fromAccountId: a,
    toAccountId: b,
    amount: 700,
    currency: 'EUR',
  });
  expect(transfer.statusCode, transfer.body).toBe(201);
  return { a, b, c, holds, taskId: String(task.id), transferId: String(bodyOf(transfer).id) };
}

type World = Awaited<ReturnType<typeof aliceWorld>>;

/** Every route that reads what the world holds, as `who` sees it. */
async function statuses(world: World, who: string) {
  const get = async (path: string) => (await api.get(path, who)).statusCode;
  return {
    accounts: [await get(`/v1/accounts/${world.a}`), await get(`/v1/accounts/${world.b}`)],
    entries: await get(`/v1/accounts/${world.a}/transactions`),
    holdsList: await get(`/v1/accounts/${world.a}/holds`),
    holds: await Promise.all(world.holds.map((id) => get(`/v1/holds/${id}`))),
    task: await get(`/v1/tasks/${world.taskId}`),
    transfer: await get(`/v1/transfers/${world.transferId}`),
  };
}

const all = (status: number) => ({
  accounts: [status, status],
  entries: status,
  holdsList: status,
  holds: [status, status],
  task: status,
  transfer: status,
});

describe('reown', () => {
  it("moves a deferred account's intake gates: the new owner credits it, the old one cannot", async () => {
    const created = await api.post('/v1/accounts', { currency: 'EUR', creditIntake: 'deferred' });
    const id = String(bodyOf(created).id);
    const run = await reown(['--account', id, '--to', 'bob']);
    expect(run.code, run.err).toBe(0);
    const credit = { type: 'credit', amount: 5, currency: 'EUR' };
    const old = await api.post(`/v1/accounts/${id}/transactions`, credit, undefined, 'alice');
    expect(old.statusCode).toBe(404);
    const now = await api.post(`/v1/accounts/${id}/transactions`, credit, undefined, 'bob');
    expect(now.statusCode, now.body).toBe(201);
  });

  it('refuses to split accounts a transfer links, lists them, and moves nothing', async () => {
    const world = await aliceWorld();
    const run = await reown(['--account', world.a, '--to', 'bob']);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`to 1 other account(s) of the same owner: ${world.b}`);
    expect(run.err).toContain('--with-linked');
    expect(await statuses(world, 'alice')).toEqual(all(200));
    expect(
      await getItem(fixture.client, fixture.tableName, keys.reownCheckpoint(world.a)),
    ).toBeUndefined();
  });

  it('moves everything, resumes after an interrupt, and gives the new owner full control', async () => {
    const world = await aliceWorld();
    const args = ['--account', world.a, '--to', 'bob', '--with-linked'];

    // Ctrl-C after the first page of holds: the accounts move last, so alice still owns them.
    const first = await reown(args, /^holds: /);
    expect(first.code, first.err).toBe(130);
    expect(first.out).toContain(`re-owning account ${world.a}: "alice" -> "bob"`);
    expect(first.out).toContain(`with 1 linked account(s): ${world.b}`);
    expect(first.out).toMatch(/interrupted at (holds|tasks): run the same command again/);
    expect((await statuses(world, 'alice')).accounts).toEqual([200, 200]);

    const second = await reown(args);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/resuming the run started .* \("alice" -> "bob"\) at (holds|tasks)/);
    expect(second.out).toContain(
      'done: 2 hold(s), 1 task(s), 1 transfer(s), 0 ledger transaction(s), 2 account(s) moved to "bob"',
    );
    expect(second.out).not.toContain('catch-up');

    expect(await statuses(world, 'alice')).toEqual(all(404));
    expect(await statuses(world, 'bob')).toEqual(all(200));
    // Full control: capture, void, rerun, transfer and export as bob; alice can do none of it.
    const [first_, second_] = world.holds;
    expect(
      (await api.post(`/v1/holds/${first_}/captures`, {}, randomUUID(), 'alice')).statusCode,
    ).toBe(404);
    expect(
      (await api.post(`/v1/holds/${first_}/captures`, {}, randomUUID(), 'bob')).statusCode,
    ).toBe(200);
    expect((await api.post(`/v1/holds/${second_}/voids`, {}, randomUUID(), 'bob')).statusCode).toBe(
      200,
    );
    expect(
      (await api.post(`/v1/tasks/${world.taskId}/reruns`, {}, randomUUID(), 'bob')).statusCode,
    ).toBe(202);
    const back = { fromAccountId: world.b, toAccountId: world.a, amount: 100, currency: 'EUR' };
    expect((await api.post('/v1/transfers', back, randomUUID(), 'alice')).statusCode).toBe(404);
    expect((await api.post('/v1/transfers', back, randomUUID(), 'bob')).statusCode).toBe(201);
    expect(
      (await api.post(`/v1/accounts/${world.a}/exports`, { format: 'csv' }, randomUUID(), 'bob'))
        .statusCode,
    ).toBe(202);
    // Money is where it was: 10,000 - 700 - 100 (fee) - 300 (capture) + 100 - 100 (fee).
    expect(await api.money(world.a, 'bob')).toEqual({ balance: 8_900, available: 8_900 });
    // C was not linked, so it stays alice's.
    expect((await api.get(`/v1/accounts/${world.c}`, 'alice')).statusCode).toBe(200);

    // Idempotent: the same command again moves nothing.
    const again = await reown(args);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(
      'done: 0 hold(s), 0 task(s), 0 transfer(s), 0 ledger transaction(s), 0 account(s)',
    );
  });

  it('moves ledger transactions, whose legs link every account of them (§2)', async () => {
    const [x, y, z] = [await api.account(1_000), await api.account(), await api.account()];
    const made = await api.post('/v1/ledger-transactions', {
      currency: 'EUR',
      legs: [
        { accountId: x, direction: 'debit', amount: 100 },
        { accountId: y, direction: 'credit', amount: 60 },
        { accountId: z, direction: 'credit', amount: 40 },
      ],
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = String(bodyOf(made).id);
    const alone = await reown(['--account', y, '--to', 'ivan']);
    expect(alone.code).toBe(1);
    expect(alone.err).toContain('to 2 other account(s) of the same owner');
    expect(alone.err).toContain(x);
    expect(alone.err).toContain(z);

    const run = await reown(['--account', y, '--to', 'ivan', '--with-linked']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('1 ledger transaction(s), 3 account(s) moved to "ivan"');
    expect((await api.get(`/v1/ledger-transactions/${id}`, 'alice')).statusCode).toBe(404);
    expect((await api.get(`/v1/ledger-transactions/${id}`, 'ivan')).statusCode).toBe(200);
    const reverse = (as: string) =>
      api.post(`/v1/ledger-transactions/${id}/reversals`, {}, randomUUID(), as);
    expect((await reverse('alice')).statusCode).toBe(404);
    expect((await reverse('ivan')).statusCode).toBe(201);
    expect(await api.money(x, 'ivan')).toEqual({ balance: 1_000, available: 1_000 });
  });

  it('catches up what the old owner created while the run was interrupted', async () => {
    const world = await aliceWorld();
    const args = ['--account', world.a, '--to', 'carol', '--with-linked'];
    const first = await reown(args, /^tasks: /);
    expect(first.code).toBe(130);
    // Holds are done; alice still owns the account and places another hold meanwhile.
    const late = await place(world.a, 50);

    const second = await reown(args);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain('a second pass catches up');
    expect(second.out).toMatch(/^holds \(catch-up\): 1 moved/m);
    expect(second.out).toContain(
      'done: 3 hold(s), 1 task(s), 1 transfer(s), 0 ledger transaction(s), 2 account(s)',
    );
    expect((await api.get(`/v1/holds/${late}`, 'carol')).statusCode).toBe(200);
    expect((await api.get(`/v1/holds/${late}`, 'alice')).statusCode).toBe(404);
  });

  it('repairs an account re-owned the old way, item by item (the account alone)', async () => {
    const world = await aliceWorld();
    for (const id of [world.a, world.b]) {
      await fixture.client.send(
        new UpdateItemCommand({
          TableName: fixture.tableName,
          Key: marshall(keys.account(id)),
          UpdateExpression: 'SET ownerId = :new',
          ExpressionAttributeValues: marshall({ ':new': 'dave' }),
        }),
      );
    }
    // The old procedure's orphans: the holds, the task and the transfer answer dave 404.
    expect((await statuses(world, 'dave')).holds).toEqual([404, 404]);
    const run = await reown(['--account', world.a, '--to', 'dave']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(
      'done: 2 hold(s), 1 task(s), 1 transfer(s), 0 ledger transaction(s), 0 account(s)',
    );
    expect(await statuses(world, 'dave')).toEqual(all(200));
  });

  it('finishes an unfinished run before any other target, and refuses an unknown account', async () => {
    const world = await aliceWorld();
    const args = ['--account', world.a, '--with-linked'];
    expect((await reown([...args, '--to', 'erin'], /^holds: /)).code).toBe(130);
    const other = await reown([...args, '--to', 'frank']);
    expect(other.code).toBe(1);
    expect(other.err).toContain('moves it to "erin"; finish it first');
    expect((await reown([...args, '--to', 'erin'])).code).toBe(0);

    const unknown = await reown(['--account', randomUUID(), '--to', 'erin']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no account .* in table/);
  });

  it("refuses an old owner's capture that read the hold before it moved (404, nothing taken)", async () => {
    const world = await aliceWorld();
    const store = createHoldStore({ client: fixture.client, tableName: fixture.tableName });
    const movements = createMovementStore({ client: fixture.client, tableName: fixture.tableName });
    const [holdId] = world.holds;
    // Alice's capture reads the hold; the re-own runs before its write.
    const racing = new HoldService(
      store,
      {
        ...movements,
        capture: async (...args) => {
          const run = await reown(['--account', world.a, '--to', 'gina', '--with-linked']);
          expect(run.code, run.err).toBe(0);
          return movements.capture(...args);
        },
      },
      {
        idempotencyRetentionSeconds: 60,
        responses: httpResponses,

        newId: randomUUID,
      },
    );
    const ctx = { principal: 'alice', idempotencyKey: randomUUID(), now: new Date() };
    await expect(racing.capture(ctx, String(holdId), undefined, {})).rejects.toMatchObject({
      code: 'not_found',
    });
    const hold = bodyOf(await api.get(`/v1/holds/${holdId}`, 'gina'));
    expect(hold).toMatchObject({ status: 'active', capturedAmount: 0 });
    expect(await api.money(world.a, 'gina')).toEqual({ balance: 9_200, available: 8_700 });
  });

  it('moves many accounts in several transactions, and stops when one gets a third owner', async () => {
    const world = await aliceWorld();
    const d = await api.account(100);
    const link = { fromAccountId: world.b, toAccountId: d, amount: 1, currency: 'EUR' };
    expect((await api.post('/v1/transfers', link)).statusCode).toBe(201);
    const port = createReownStore({ client: fixture.client, tableName: fixture.tableName });
    const request = { accountId: world.a, to: 'henry', withLinked: true };

    // One account per transaction; stopped just before the accounts move, D given to mallory.
    const controller = new AbortController();
    const accountsStep = REOWN_STEPS.findIndex((step) => step.phase === 'accounts');
    const service = new ReownService(port, { accountsPerTransaction: 1 });
    const stopped = await service.run(
      request,
      (event) => {
        if (event.kind === 'page' && event.checkpoint.step === accountsStep) controller.abort();
      },
      controller.signal,
    );
    expect(stopped).toMatchObject({ kind: 'interrupted', checkpoint: { step: accountsStep } });
    expect(stopped.kind === 'interrupted' && stopped.checkpoint.accounts.map((a) => a.id)).toEqual([
      world.a,
      world.b,
      d,
    ]);
    await fixture.client.send(
      new UpdateItemCommand({
        TableName: fixture.tableName,
        Key: marshall(keys.account(d)),
        UpdateExpression: 'SET ownerId = :m',
        ExpressionAttributeValues: marshall({ ':m': 'mallory' }),
      }),
    );
    const refused = await service.run(request);
    expect(refused).toEqual({
      kind: 'refused',
      refusal: {
        kind: 'owner_changed',
        account: expect.objectContaining({ id: d, ownerId: 'mallory' }),
      },
    });
    // A and B moved in their own transactions before D was refused; D stays mallory's.
    expect((await api.get(`/v1/accounts/${world.a}`, 'henry')).statusCode).toBe(200);
    expect((await api.get(`/v1/accounts/${world.b}`, 'henry')).statusCode).toBe(200);
    expect((await api.get(`/v1/accounts/${d}`, 'mallory')).statusCode).toBe(200);
  });
});

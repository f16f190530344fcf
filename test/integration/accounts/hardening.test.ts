import { randomUUID } from 'node:crypto';
import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { epochSeconds } from '../../../functions/domain/shared/time';
import { inboxItem } from '../../../functions/dynamodb/events/items';
import { keys } from '../../../functions/dynamodb/table/keys';
import { httpEvent } from '../../../kit/http-event';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { APP, callbackBody, csvResult, SECRET, signedCallback } from '../../support/callbacks';
import { useLedgerFixture } from '../fixture';

/**
 * Hardening against DynamoDB Local (docs/contract.md §5–§7, §13): key byte limits are checked
 * before writing, the inbox keeps a content hash, and no balance may pass 2^53 − 1 minor units.
 */
const MAX_BALANCE = Number.MAX_SAFE_INTEGER;
const fixture = useLedgerFixture({
  config: { exportFee: 1, callbackApplicationId: APP },
  callbackSecrets: JSON.stringify({ [APP]: [SECRET] }),
});
const { app, consume: consumer, deadLetters } = fixture;

const call = (method: string, path: string, options: Parameters<typeof httpEvent>[2] = {}) =>
  app(httpEvent(method, path, { principal: 'alice', ...options }));

async function newAccount(): Promise<string> {
  const res = await call('POST', '/v1/accounts', {
    idempotencyKey: randomUUID(),
    body: { currency: 'EUR' },
  });
  return JSON.parse(res.body).id;
}

async function account(accountId: string) {
  const res = await call('GET', `/v1/accounts/${accountId}`);
  const entries = await call('GET', `/v1/accounts/${accountId}/transactions`);
  return {
    balance: JSON.parse(res.body).balance as number,
    entries: JSON.parse(entries.body).items.length as number,
  };
}

/** Sets a balance no test could reach with 10^12-unit credits in reasonable time. */
async function setBalance(accountId: string, balance: number): Promise<void> {
  await fixture.client.send(
    new UpdateItemCommand({
      TableName: fixture.tableName,
      Key: marshall(keys.account(accountId)),
      UpdateExpression: 'SET balance = :b',
      ExpressionAttributeValues: marshall({ ':b': balance }),
    }),
  );
}

const deliver = async (...bodies: unknown[]) =>
  consumer(sqsEvent(...bodies.map((body) => sqsRecord(body))));

describe('keys are limited in bytes, checked before writing', () => {
  it('applies an event whose source is exactly 512 UTF-8 bytes, sequence item included', async () => {
    const accountId = await newAccount();
    const source = `${'源'.repeat(170)}ab`; // 510 + 2 bytes
    const event = ledgerEvent({ subject: accountId, source, sequence: 1 });
    expect((await deliver(event)).batchItemFailures).toEqual([]);
    expect(deadLetters).toEqual([]);
    expect(await account(accountId)).toEqual({ balance: 100, entries: 1 });
    const sources = JSON.parse((await call('GET', `/v1/accounts/${accountId}/event-sources`)).body);
    expect(sources.items).toMatchObject([{ source, lastSequence: 1 }]);
  });

  it('dead-letters 400 CJK characters of source at once as schema_invalid (DynamoDB would refuse the key)', async () => {
    const accountId = await newAccount();
    const source = '源'.repeat(400);
    // The premise: DynamoDB refuses such a sort key, on every attempt, as a ValidationException.
    const refused = await fixture.client
      .send(
        new PutItemCommand({
          TableName: fixture.tableName,
          Item: marshall({ ...keys.eventSource(accountId, source), kind: 'probe' }),
        }),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).toMatchObject({ name: 'ValidationException' });

    const event = ledgerEvent({ subject: accountId, source, sequence: 1 });
    expect((await deliver(event)).batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => l.code)).toEqual(['schema_invalid']);
    expect(deadLetters[0]?.detail).toContain('512 UTF-8 bytes');
    expect(await account(accountId)).toEqual({ balance: 0, entries: 0 });
  });
});

describe('the inbox keeps a hash of each event', () => {
  it('dead-letters the same (source, id) with other content as id_conflict; the money stays', async () => {
    const accountId = await newAccount();
    const first = ledgerEvent({ id: 'same-id', subject: accountId, amount: 100 });
    const forged = ledgerEvent({ id: 'same-id', subject: accountId, amount: 9_999 });
    expect((await deliver(first)).batchItemFailures).toEqual([]);
    expect((await deliver(forged)).batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => l.code)).toEqual(['id_conflict']);
    expect(deadLetters[0]?.detail).toContain('same-id');
    expect(await account(accountId)).toEqual({ balance: 100, entries: 1 });
  });

  it('acknowledges an identical event as a duplicate, whatever its time or subject case', async () => {
    const accountId = await newAccount();
    const first = ledgerEvent({ id: 'twice', subject: accountId });
    const again = { ...first, subject: accountId.toUpperCase(), time: '2026-12-01T00:00:00Z' };
    await deliver(first);
    await deliver(again);
    expect(deadLetters).toEqual([]);
    expect(await account(accountId)).toEqual({ balance: 100, entries: 1 });
  });

  it('counts an inbox record written before the hash existed as a duplicate', async () => {
    const accountId = await newAccount();
    const event = ledgerEvent({ id: 'legacy', subject: accountId, source: 'urn:legacy' });
    const nowSeconds = epochSeconds();
    // The inbox record as written before the hash existed: no contentHash.
    const { Put } = inboxItem(fixture.tableName, {
      source: 'urn:legacy',
      id: 'legacy',
      nowSeconds,
      expiresAt: nowSeconds + 3600,
    });
    await fixture.client.send(
      new PutItemCommand({ TableName: fixture.tableName, Item: Put?.Item }),
    );
    await deliver(event);
    expect(deadLetters).toEqual([]);
    expect(await account(accountId)).toEqual({ balance: 0, entries: 0 });
  });
});

describe('balances stop at 2^53 − 1 minor units', () => {
  it('answers 422 balance_limit_exceeded, records it and replays it; a credit up to the cap passes', async () => {
    const accountId = await newAccount();
    await setBalance(accountId, MAX_BALANCE - 10);
    const path = `/v1/accounts/${accountId}/transactions`;
    const over = { type: 'credit', amount: 11, currency: 'EUR' };
    const first = await call('POST', path, { idempotencyKey: 'cap-1', body: over });
    expect(first.statusCode).toBe(422);
    expect(JSON.parse(first.body)).toMatchObject({ code: 'balance_limit_exceeded' });
    const replay = await call('POST', path, { idempotencyKey: 'cap-1', body: over });
    expect(replay.statusCode).toBe(422);
    expect(replay.body).toBe(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await account(accountId)).toEqual({ balance: MAX_BALANCE - 10, entries: 0 });

    const exact = { type: 'credit', amount: 10, currency: 'EUR' };
    expect((await call('POST', path, { idempotencyKey: 'cap-2', body: exact })).statusCode).toBe(
      201,
    );
    expect(await account(accountId)).toEqual({ balance: MAX_BALANCE, entries: 1 });
  });

  it('dead-letters an event credit past the cap as balance_limit_exceeded', async () => {
    const accountId = await newAccount();
    await setBalance(accountId, MAX_BALANCE);
    expect(
      (await deliver(ledgerEvent({ subject: accountId, amount: 1 }))).batchItemFailures,
    ).toEqual([]);
    expect(deadLetters.map((l) => l.code)).toEqual(['balance_limit_exceeded']);
    expect(await account(accountId)).toEqual({ balance: MAX_BALANCE, entries: 0 });
  });
});

describe('callbacks keep a hash too', () => {
  it('answers 400 invalid_callback for a seen id with other content and records nothing', async () => {
    const accountId = await newAccount();
    await call('POST', `/v1/accounts/${accountId}/transactions`, {
      idempotencyKey: randomUUID(),
      body: { type: 'credit', amount: 10, currency: 'EUR' },
    });
    const created = await call('POST', `/v1/accounts/${accountId}/exports`, {
      idempotencyKey: randomUUID(),
      body: { format: 'csv' },
    });
    const task = JSON.parse(created.body) as { id: string; currentExecutionId: string };
    const id = randomUUID();
    const executionId = task.currentExecutionId;
    const first = callbackBody({ id, executionId, sequence: 1, status: 'RUNNING', progress: 10 });
    expect(JSON.parse((await app(signedCallback(first))).body)).toEqual({ outcome: 'applied' });

    const other = callbackBody({
      id,
      executionId,
      sequence: 2,
      status: 'SUCCEEDED',
      progress: 100,
      // A valid SUCCEEDED (docs/contract.md §14): only the reused id is wrong.
      result: csvResult(task.id, executionId),
    });
    const res = await app(signedCallback(other));
    expect(res.statusCode).toBe(400);
    const problem = JSON.parse(res.body) as { code: string; detail: string };
    expect(problem.code).toBe('invalid_callback');
    expect(problem.detail).toContain(id);
    const after = JSON.parse((await call('GET', `/v1/tasks/${task.id}`)).body);
    expect(after).toMatchObject({ status: 'RUNNING', progress: 10 });

    // The identical callback, upper-cased ids included, is still a duplicate.
    const same = first.replace(id, id.toUpperCase());
    expect(JSON.parse((await app(signedCallback(same))).body)).toEqual({ outcome: 'duplicate' });
  });
});

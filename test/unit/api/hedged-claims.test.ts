import {
  DynamoDBClient,
  GetItemCommand,
  type GetItemCommandInput,
  TransactWriteItemsCommand,
  type TransactWriteItemsCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import type { ServiceConfig } from '../../../functions/handlers/shared/config';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';
import { cancelled, conditionFailed, none } from '../../support/sdk/cancellation';

/**
 * The hedged claim read through the composed HTTP function, on a mocked DynamoDB that answers
 * with the SDK's own exception objects (docs/contract.md §4, §36).
 */
const ddb = mockClient(DynamoDBClient);
const NOW = new Date('2026-11-29T10:00:00.000Z');
const NOW_SECONDS = NOW.getTime() / 1000;
const ACCOUNT = '22222222-2222-4222-8222-222222222222';
const path = `/v1/accounts/${ACCOUNT}/transactions`;
const credit = (amount = 5) =>
  httpEvent('POST', path, {
    principal: 'p',
    idempotencyKey: 'k-1',
    body: { type: 'credit', amount, currency: 'EUR' },
  });

const app = (config: Partial<ServiceConfig> = {}) =>
  composeHttpHandler({
    dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
    retry: { sleep: async () => {}, maxAttempts: 1 },
    config: testConfig({
      idempotencyLocalCache: false,
      idempotencyHedgedRead: 'always',
      ...config,
    }),
    callbackSecrets: staticCallbackSecrets('{}'),
    newId: () => '11111111-1111-4111-8111-111111111111',
    clock: () => NOW,
    log: silentLog,
  });

const isClaimKey = (input: GetItemCommandInput) =>
  String(unmarshall(input.Key ?? {}).pk).startsWith('IDEMPOTENCY#');

/** The claim item a first credit writes, as its transaction sent it. */
async function firstClaim(): Promise<Record<string, unknown>> {
  ddb.on(TransactWriteItemsCommand).resolves({});
  ddb.on(GetItemCommand).resolves({});
  expect((await app()(credit())).statusCode).toBe(201);
  const input = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0]
    .input as TransactWriteItemsCommandInput;
  const put = input.TransactItems?.[0]?.Put;
  ddb.reset();
  return unmarshall(put?.Item ?? {});
}

const never = () => new Promise<never>(() => {});

/** The read finds an earlier attempt's claim; the transaction never ends. */
async function readFindsEarlierClaim(): Promise<void> {
  const claim = await firstClaim();
  ddb.on(TransactWriteItemsCommand).callsFake(never);
  ddb
    .on(GetItemCommand)
    .callsFake((input: GetItemCommandInput) =>
      isClaimKey(input) ? { Item: marshall({ ...claim, writer: 'an-earlier-attempt' }) } : {},
    );
}

beforeEach(() => ddb.reset());

describe('hedged claim read (HTTP function)', () => {
  it("stores the attempt's writer token on the claim it writes", async () => {
    const claim = await firstClaim();
    expect(claim.pk).toMatch(/^IDEMPOTENCY#/);
    expect(claim.writer).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a replay from the read while the doomed transaction has not ended', async () => {
    await readFindsEarlierClaim();
    const replay = await app()(credit());
    expect(replay.statusCode).toBe(201);
    expect(replay.headers?.['idempotent-replayed']).toBe('true');
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(1);
  });

  it('answers 422 for a fingerprint mismatch the read found', async () => {
    await readFindsEarlierClaim();
    const reused = await app()(credit(6));
    expect(reused.statusCode).toBe(422);
    expect(JSON.parse(reused.body)).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('answers a claim carrying its own token as the first answer, not a replay', async () => {
    ddb.on(TransactWriteItemsCommand).callsFake(never);
    ddb.on(GetItemCommand).callsFake((input: GetItemCommandInput) => {
      if (!isClaimKey(input)) return {};
      // The read lands after this attempt's own transaction committed: it finds its own claim.
      const own = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0]
        .input as TransactWriteItemsCommandInput;
      return { Item: own.TransactItems?.[0]?.Put?.Item };
    });
    const first = await app()(credit());
    expect(first.statusCode).toBe(201);
    expect(first.headers?.['idempotent-replayed']).toBeUndefined();
  });

  it('ignores an expired claim: the transaction answers', async () => {
    const claim = await firstClaim();
    ddb
      .on(GetItemCommand)
      .callsFake((input: GetItemCommandInput) =>
        isClaimKey(input)
          ? { Item: marshall({ ...claim, writer: 'old', expiresAt: NOW_SECONDS - 1 }) }
          : {},
      );
    ddb.on(TransactWriteItemsCommand).resolves({});
    const fresh = await app()(credit(7));
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers?.['idempotent-replayed']).toBeUndefined();
  });

  it('never answers from the read when no claim committed: the refusal is recorded', async () => {
    // The credit's transaction is cancelled by its account (currency), not by a claim; the read
    // found nothing, so the answer is the refusal, recorded with a claim-only write.
    ddb.on(GetItemCommand).resolves({});
    ddb
      .on(TransactWriteItemsCommand)
      .rejectsOnce(
        cancelled(
          none,
          conditionFailed({ pk: `ACCOUNT#${ACCOUNT}`, currency: 'USD', ownerId: 'p' }),
          none,
          none,
        ),
      )
      .resolves({});
    const refused = await app()(credit());
    expect(refused.statusCode).toBe(422);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'currency_mismatch' });
    expect(ddb.commandCalls(TransactWriteItemsCommand)).toHaveLength(2);
    expect(refused.headers?.['idempotent-replayed']).toBeUndefined();
  });

  it('with IDEMPOTENCY_HEDGED_READ=off, a replay waits for its cancelled transaction', async () => {
    const claim = await firstClaim();
    ddb.on(GetItemCommand).resolves({});
    ddb.on(TransactWriteItemsCommand).rejects(cancelled(conditionFailed(claim), none, none, none));
    const replay = await app({ idempotencyHedgedRead: 'off' })(credit());
    expect(replay.statusCode).toBe(201);
    expect(replay.headers?.['idempotent-replayed']).toBe('true');
    expect(ddb.commandCalls(GetItemCommand).filter((c) => isClaimKey(c.args[0].input))).toEqual([]);
  });
});

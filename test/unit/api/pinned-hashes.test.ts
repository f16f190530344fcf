import {
  DynamoDBClient,
  GetItemCommand,
  TransactWriteItemsCommand,
  type TransactWriteItemsCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../../functions/domain/shared/log';
import { parseLedgerEvent } from '../../../functions/handlers/events/parse';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { httpEvent } from '../../../kit/http-event';
import { testConfig } from '../../support/config';

/**
 * Bodies sent before ledger depth (docs/contract.md §16, §17) keep their fingerprints and inbox
 * hashes: a new optional field gets no default before hashing, so a client retrying a request
 * from before the upgrade replays instead of hitting `idempotency_key_reused`, and a producer's
 * resend is a duplicate, not an `id_conflict`. The hex values were computed by the code of the
 * release before and must never change.
 */
const ddb = mockClient(DynamoDBClient);
const app = composeHttpHandler({
  dynamo: new DynamoDBClient({ region: 'eu-west-1' }),
  retry: { sleep: async () => {}, maxAttempts: 1 },
  config: testConfig({ idempotencyLocalCache: false }),
  callbackSecrets: staticCallbackSecrets('{}'),
  newId: () => '11111111-1111-4111-8111-111111111111',
  clock: () => new Date('2026-11-29T10:00:00.000Z'),
  log: silentLog,
});

const ACCOUNT = '22222222-2222-4222-8222-222222222222';
const OTHER = '33333333-3333-4333-8333-333333333333';
const HOLD = '44444444-4444-4444-8444-444444444444';

beforeEach(() => {
  ddb.reset();
  ddb.on(TransactWriteItemsCommand).resolves({});
  ddb.on(GetItemCommand).callsFake((input: { Key: Record<string, never> }) => {
    const { pk } = unmarshall(input.Key) as { pk: string };
    if (pk === `HOLD#${HOLD}`) {
      return {
        Item: marshall({
          pk,
          sk: 'HOLD',
          kind: 'hold',
          id: HOLD,
          accountId: ACCOUNT,
          ownerId: 'pinned',
          amount: 50,
          currency: 'EUR',
          status: 'active',
          capturedAmount: 0,
          holdExpiresAt: '2026-11-29T11:00:00.000Z',
          createdAt: '2026-11-29T09:00:00.000Z',
          updatedAt: '2026-11-29T09:00:00.000Z',
        }),
      };
    }
    if (pk === `ACCOUNT#${ACCOUNT}`) {
      return {
        Item: marshall({
          pk,
          sk: 'ACCOUNT',
          id: ACCOUNT,
          ownerId: 'pinned',
          currency: 'EUR',
          balance: 1000,
          available: 1000,
          createdAt: '2026-11-29T09:00:00.000Z',
          updatedAt: '2026-11-29T09:00:00.000Z',
        }),
      };
    }
    return {};
  });
});

/** The fingerprint the claim of the first TransactWriteItems carries. */
async function fingerprintOf(path: string, body: unknown): Promise<string> {
  const res = await app(
    httpEvent('POST', path, { principal: 'pinned', idempotencyKey: 'pinned-key', body }),
  );
  expect(res.statusCode, res.body).toBeLessThan(300);
  const [call] = ddb.commandCalls(TransactWriteItemsCommand);
  if (!call) throw new Error('no TransactWriteItems was sent');
  const items = (call.args[0].input as TransactWriteItemsCommandInput).TransactItems ?? [];
  const claim = items
    .map((item) => (item.Put?.Item ? unmarshall(item.Put.Item) : undefined))
    .find((item) => String(item?.pk).startsWith('IDEMPOTENCY#'));
  return String(claim?.fingerprint);
}

describe('fingerprints of bodies from before ledger depth', () => {
  it.each([
    [
      'createAccount',
      '/v1/accounts',
      { currency: 'EUR', name: 'Main' },
      'c0d8ace0a4c4d6ea9df4cfcd44d786e3529483946baefd6a7c5a352bd7b14935',
    ],
    [
      'createAccount (no name)',
      '/v1/accounts',
      { currency: 'USD' },
      'cb430cea90eead3d6fa81275cf2dcf0009b37b4cdc1d978f236dca0d1a923893',
    ],
    [
      'postTransaction (credit)',
      `/v1/accounts/${ACCOUNT}/transactions`,
      { type: 'credit', amount: 100, currency: 'EUR', reference: 'r', paymentId: 'p-1' },
      'f7a870670562d46faed87fef4256904aca9dbf546cfaa25ab9a9e415b4e9b1e8',
    ],
    [
      'postTransaction (debit)',
      `/v1/accounts/${ACCOUNT.toUpperCase()}/transactions`,
      { type: 'debit', amount: 5, currency: 'EUR' },
      '2bbe5d22b3facd61c20249bebb174965db0c2792a7bd2d816f7c5966c2c99371',
    ],
    [
      'createTransfer',
      '/v1/transfers',
      { fromAccountId: ACCOUNT.toUpperCase(), toAccountId: OTHER, amount: 7, currency: 'EUR' },
      'fd939fb658b6d1035cf43a746704b7b89e65a88bf03b0b27cc49ade4c6839202',
    ],
    [
      'placeHold',
      `/v1/accounts/${ACCOUNT}/holds`,
      { amount: 30, currency: 'EUR', expiresInSeconds: 600, reference: 'h' },
      '98f689e6f0e9a70de955f827606fd8520d776eb5f74eb0c5d1d69f027915cc2d',
    ],
    [
      'captureHold',
      `/v1/holds/${HOLD}/captures`,
      { amount: 20 },
      '1f63c1a779fe9d26d7ead09d200290fb0c4fd03aadf9b52f90984fd0047404d9',
    ],
    [
      'captureHold (all)',
      `/v1/holds/${HOLD}/captures`,
      {},
      '49b8d07e8a74eb844388a8d413a84f49ff2f8336796b807e7a060e481cf3896a',
    ],
    [
      'voidHold',
      `/v1/holds/${HOLD}/voids`,
      {},
      '9bc7522d54b87f2dbe53d1ce582fecccbdd6c5d62d6cbf239f8688aea2dec5dc',
    ],
    [
      'createExport',
      `/v1/accounts/${ACCOUNT}/exports`,
      { format: 'csv' },
      '8142c1a86b1e335290f7d1c3da6abab435b8988bdb68d4bdf48ecd94677a2a2c',
    ],
    // Before multi-currency legs (§35): a single-currency body keeps its fingerprint.
    [
      'createLedgerTransaction',
      '/v1/ledger-transactions',
      {
        currency: 'EUR',
        legs: [
          { accountId: ACCOUNT.toUpperCase(), direction: 'debit', amount: 70 },
          { accountId: OTHER, direction: 'credit', amount: 70 },
        ],
        reference: 'split',
        paymentId: 'p-lt',
        metadata: { order: 'o-1' },
      },
      'e71c7692a7a39f5fb18eb2273a975b975f7a3f46ad5b86d568db517613d43082',
    ],
  ])('%s', async (_name, path, body, expected) => {
    expect(await fingerprintOf(path, body)).toBe(expected);
  });
});

describe('inbox hashes of events from before ledger depth', () => {
  const event = (type: string, data: Record<string, unknown>) => ({
    specversion: '1.0',
    id: 'evt-1',
    source: 'urn:producer:pinned',
    type,
    subject: ACCOUNT.toUpperCase(),
    sequence: '7',
    time: '2026-11-29T10:00:00Z',
    datacontenttype: 'application/json',
    data,
  });
  it.each([
    [
      'ledger.credit.v1',
      event('ledger.credit.v1', { amount: 100, currency: 'EUR', reference: 'r', paymentId: 'p' }),
      '3231e101f7b39685fb9b03a89167d550d73e11d3a5ef54dc13b21e04b6ec7be6',
    ],
    [
      'ledger.debit.v1',
      event('ledger.debit.v1', { amount: 5, currency: 'EUR' }),
      'e4f418b47914a4beabb595f42a0a8773e5d15c2ceaf071f429dc2fe9d6a32b3e',
    ],
    [
      'ledger.transfer.v1',
      event('ledger.transfer.v1', { toAccountId: OTHER, amount: 9, currency: 'EUR' }),
      'ddfcea9f1bf01fa9013d306595271141964ccfeb3660579d572b1fe175f45c01',
    ],
    [
      'ledger.transaction.v1 (before multi-currency legs, §35)',
      event('ledger.transaction.v1', {
        currency: 'EUR',
        legs: [
          { accountId: ACCOUNT, direction: 'debit', amount: 12 },
          { accountId: OTHER.toUpperCase(), direction: 'credit', amount: 12 },
        ],
        reference: 'r',
      }),
      '70624a2ff77d77b2a10b4b939484c0748a3db7b01c1ca7c5fe86ff83e9021971',
    ],
  ])('%s', (_name, body, expected) => {
    const parsed = parseLedgerEvent(JSON.stringify(body));
    expect(parsed.ok && 'event' in parsed && parsed.event.contentHash).toBe(expected);
  });
});

describe('answers of bodies from before multi-currency legs (§35, §36)', () => {
  it('answers a single-currency ledger transaction byte for byte as before', async () => {
    const legs = [
      { accountId: ACCOUNT.toUpperCase(), direction: 'debit', amount: 70 },
      { accountId: OTHER, direction: 'credit', amount: 70 },
    ];
    const body = { currency: 'EUR', legs, reference: 'split', metadata: { order: 'o-1' } };
    const res = await app(
      httpEvent('POST', '/v1/ledger-transactions', {
        principal: 'pinned',
        idempotencyKey: 'pinned-key',
        body: { ...body, paymentId: 'p-lt' },
      }),
    );
    // The text the release before answered, computed by its code.
    expect(res.body).toBe(
      '{"id":"11111111-1111-4111-8111-111111111111","currency":"EUR","legs":[{"accountId":"22222222-2222-4222-8222-222222222222","direction":"debit","amount":70},{"accountId":"33333333-3333-4333-8333-333333333333","direction":"credit","amount":70}],"reference":"split","paymentId":"p-lt","metadata":{"order":"o-1"},"createdAt":"2026-11-29T10:00:00.000Z","effectiveAt":"2026-11-29T10:00:00.000Z"}',
    );
  });
});

import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLog } from '../../../functions/domain/shared/log';
import { composeHttpHandler } from '../../../functions/handlers/http/compose';
import { composeSweeper } from '../../../functions/handlers/sweeper/compose';
import { staticCallbackSecrets } from '../../../functions/schemas/exports/callbacks';
import { testConfig, testSweeper } from '../../support/config';
import { createTestTable } from '../../support/dynamo';
import { bodyOf, ledgerApi } from '../../support/ledger-api';

/**
 * Model-based: random sequences of credits, debits, transfers, holds, captures, voids, clock
 * jumps with sweeps, and replays of earlier requests, against a reference model of balance,
 * available and each hold (docs/contract.md §10, §11). Every answer and, after every step, both
 * accounts' balance and available must match the model.
 */

let client: DynamoDBClient;
let tableName: string;
let drop: () => Promise<void>;
let now = new Date();
let api: ReturnType<typeof ledgerApi>;
let sweep: () => Promise<unknown>;

beforeAll(async () => {
  ({ client, tableName, drop } = await createTestTable());
  const clock = () => {
    now = new Date(now.getTime() + 1);
    return now;
  };
  const config = testConfig({ tableName });
  api = ledgerApi(
    composeHttpHandler({
      dynamo: client,
      config,
      callbackSecrets: staticCallbackSecrets('{}'),
      clock,
      log: silentLog,
    }),
  );
  sweep = composeSweeper({ dynamo: client, ...testSweeper({ tableName }), clock, log: silentLog });
});
afterAll(() => drop());

type Op =
  | { kind: 'credit' | 'debit'; account: 0 | 1; amount: number }
  | { kind: 'transfer'; from: 0 | 1; amount: number }
  | { kind: 'hold'; account: 0 | 1; amount: number; seconds: number }
  /** `percent` of the hold's amount (above 100: more than the hold); undefined: all of it. */
  | { kind: 'capture'; hold: number; percent: number | undefined }
  | { kind: 'void'; hold: number }
  | { kind: 'wait'; seconds: number; sweep: boolean }
  | { kind: 'replay'; of: number };

const side = fc.constantFrom<0 | 1>(0, 1);
const amount = fc.integer({ min: 1, max: 400 });
// Holds and captures weigh more: they need each other to reach the interesting states.
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('credit' as const, 'debit' as const), account: side, amount }),
  fc.record({ kind: fc.constant('transfer' as const), from: side, amount }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('hold' as const),
      account: side,
      amount,
      seconds: fc.integer({ min: 1, max: 60 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('capture' as const),
      hold: fc.nat(5),
      percent: fc.option(fc.integer({ min: 1, max: 110 }), { nil: undefined }),
    }),
  },
  fc.record({ kind: fc.constant('void' as const), hold: fc.nat(5) }),
  fc.record({
    kind: fc.constant('wait' as const),
    seconds: fc.integer({ min: 1, max: 40 }),
    sweep: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('replay' as const), of: fc.nat(20) }),
);

interface Money {
  balance: number;
  available: number;
}

interface ModelHold {
  id: string;
  account: 0 | 1;
  amount: number;
  expiresAt: number;
  status: 'active' | 'captured' | 'voided' | 'expired';
  /** The sweeper released it (status expired and money back). */
  released: boolean;
}

interface Sent {
  path: string;
  body: unknown;
  key: string;
  status: number;
  text: string;
}

it('transfers and holds match a reference model, replays included', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
      const ids: [string, string] = [await api.account(1_000), await api.account(500)];
      const money: [Money, Money] = [
        { balance: 1_000, available: 1_000 },
        { balance: 500, available: 500 },
      ];
      const holds: ModelHold[] = [];
      const sent: Sent[] = [];
      const post = async (path: string, body: unknown, expected: number) => {
        const key = randomUUID();
        const res = await api.post(path, body, key);
        expect(res.statusCode, `${path} ${JSON.stringify(body)}: ${res.body}`).toBe(expected);
        sent.push({ path, body, key, status: res.statusCode, text: res.body });
        return res;
      };
      const settled = (h: ModelHold) => h.status === 'captured' || h.status === 'voided';
      const expired = (h: ModelHold) => !settled(h) && now.getTime() + 1 >= h.expiresAt;

      for (const step of ops) {
        switch (step.kind) {
          case 'credit':
          case 'debit': {
            const ok = step.kind === 'credit' || money[step.account].available >= step.amount;
            const body = { type: step.kind, amount: step.amount, currency: 'EUR' };
            await post(`/v1/accounts/${ids[step.account]}/transactions`, body, ok ? 201 : 409);
            if (ok) {
              const delta = step.kind === 'credit' ? step.amount : -step.amount;
              money[step.account].balance += delta;
              money[step.account].available += delta;
            }
            break;
          }
          case 'transfer': {
            const to = step.from === 0 ? 1 : 0;
            const ok = money[step.from].available >= step.amount;
            const body = {
              fromAccountId: ids[step.from],
              toAccountId: ids[to],
              amount: step.amount,
              currency: 'EUR',
            };
            await post('/v1/transfers', body, ok ? 201 : 409);
            if (ok) {
              money[step.from].balance -= step.amount;
              money[step.from].available -= step.amount;
              money[to].balance += step.amount;
              money[to].available += step.amount;
            }
            break;
          }
          case 'hold': {
            const ok = money[step.account].available >= step.amount;
            const body = { amount: step.amount, currency: 'EUR', expiresInSeconds: step.seconds };
            const res = await post(`/v1/accounts/${ids[step.account]}/holds`, body, ok ? 201 : 409);
            if (ok) {
              money[step.account].available -= step.amount;
              const created = bodyOf(res);
              holds.push({
                id: String(created.id),
                account: step.account,
                amount: step.amount,
                expiresAt: Date.parse(String(created.expiresAt)),
                status: 'active',
                released: false,
              });
            }
            break;
          }
          case 'capture':
          case 'void': {
            const hold = holds[step.hold % Math.max(1, holds.length)];
            if (!hold) break;
            const asked =
              step.kind === 'capture' && step.percent !== undefined
                ? Math.max(1, Math.ceil((hold.amount * step.percent) / 100))
                : undefined;
            const captured = step.kind === 'capture' ? (asked ?? hold.amount) : 0;
            const path = `/v1/holds/${hold.id}/${step.kind === 'capture' ? 'captures' : 'voids'}`;
            const body = asked === undefined ? {} : { amount: asked };
            if (step.kind === 'capture' && captured > hold.amount) {
              await post(path, body, 400);
              break;
            }
            const res = await post(path, body, settled(hold) || expired(hold) ? 409 : 200);
            if (res.statusCode !== 200) {
              expect(bodyOf(res).code).toBe(settled(hold) ? 'hold_not_active' : 'hold_expired');
              break;
            }
            hold.status = step.kind === 'capture' ? 'captured' : 'voided';
            money[hold.account].balance -= captured;
            money[hold.account].available += hold.amount - captured;
            break;
          }
          case 'wait': {
            now = new Date(now.getTime() + step.seconds * 1000);
            if (step.sweep) {
              await sweep();
              for (const hold of holds) {
                if (hold.status === 'active' && now.getTime() >= hold.expiresAt && !hold.released) {
                  hold.status = 'expired';
                  hold.released = true;
                  money[hold.account].available += hold.amount;
                }
              }
            }
            break;
          }
          case 'replay': {
            const first = sent[step.of % Math.max(1, sent.length)];
            if (!first) break;
            const again = await api.post(first.path, first.body, first.key);
            expect(again.statusCode).toBe(first.status);
            expect(again.body).toBe(first.text);
            if (first.status !== 400) expect(again.headers['idempotent-replayed']).toBe('true');
            break;
          }
        }
        for (const i of [0, 1] as const) {
          expect(await api.money(ids[i]), `account ${i} after ${JSON.stringify(step)}`).toEqual(
            money[i],
          );
        }
      }
      // Holds only ever lower available below the balance.
      for (const m of money) expect(m.balance).toBeGreaterThanOrEqual(m.available);
    }),
    { numRuns: 15 },
  );
}, 240_000);

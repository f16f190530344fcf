import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type EventSpec, ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { intakeOf } from '../../support/intake/intake';
import { useLedgerFixture } from '../fixture';

/** Ledger events into a deferred account (docs/contract.md §24): the same intake as HTTP. */

const fixture = useLedgerFixture();
const { api, consume, deadLetters } = fixture;

const event = (spec: EventSpec) => JSON.stringify(ledgerEvent({ id: randomUUID(), ...spec }));
const batch = (...bodies: string[]) =>
  consume(sqsEvent(...bodies.map((body, i) => sqsRecord(body, `m-${i}`))));
const pendingOf = (accountId: string) => intakeOf(fixture.client, fixture.tableName, accountId);

describe('ledger events into a deferred account', () => {
  it('accepts an SQS credit sent twice as ONE pending credit, the duplicate acknowledged', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const body = event({ subject: id, amount: 40, sequence: 1 });
    expect((await batch(body, body)).batchItemFailures).toEqual([]);
    expect((await batch(body)).batchItemFailures).toEqual([]);
    const { pending, counted } = await pendingOf(id);
    expect(pending.map((p) => p.entry)).toMatchObject([
      { type: 'credit', amount: 40, origin: 'event' },
    ]);
    expect(counted).toBe(1);
    expect(await api.money(id)).toEqual({ balance: 0, available: 0 });
    expect(deadLetters).toEqual([]);
  });

  it('takes a lane of credits (coalesced for a direct account) one pending credit each', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const bodies = [1, 2, 3, 4].map((sequence) => event({ subject: id, amount: 10, sequence }));
    expect((await batch(...bodies)).batchItemFailures).toEqual([]);
    const { pending } = await pendingOf(id);
    expect(pending).toHaveLength(4);
    const sources = JSON.parse((await api.get(`/v1/accounts/${id}/event-sources`)).body);
    expect(sources.items?.[0] ?? sources[0]).toMatchObject({ lastSequence: 4, gaps: [] });
  });

  it('defers the credited side of a transfer event from a direct account', async () => {
    const [from, to] = [
      await api.account(500),
      await api.accountWith({ creditIntake: 'deferred' }),
    ];
    const body = event({ type: 'ledger.transfer.v1', subject: from, toAccountId: to, amount: 60 });
    expect((await batch(body)).batchItemFailures).toEqual([]);
    expect(await api.money(from)).toEqual({ balance: 440, available: 440 });
    const { pending } = await pendingOf(to);
    expect(pending.map((p) => p.entry)).toMatchObject([{ type: 'transfer_in', amount: 60 }]);
  });

  it('once it knows the account is deferred, applies a lane record by record: no run on the account item', async () => {
    const id = await api.accountWith({ creditIntake: 'deferred' });
    const first = event({ subject: id, amount: 1, sequence: 1 });
    expect((await batch(first)).batchItemFailures).toEqual([]);
    const updates: string[] = [];
    fixture.client.middlewareStack.add(
      (next) => async (args) => {
        const items = (args.input as { TransactItems?: { Update?: { Key?: unknown } }[] })
          .TransactItems;
        for (const item of items ?? []) updates.push(JSON.stringify(item.Update?.Key ?? {}));
        return next(args);
      },
      { step: 'initialize', name: 'accountUpdates' },
    );
    try {
      const lane = [2, 3, 4].map((sequence) => event({ subject: id, amount: 1, sequence }));
      expect((await batch(...lane)).batchItemFailures).toEqual([]);
    } finally {
      fixture.client.middlewareStack.remove('accountUpdates');
    }
    expect(updates.filter((key) => key.includes(`ACCOUNT#${id}`))).toEqual([]);
    expect((await pendingOf(id)).pending).toHaveLength(4);
  });
});

import { describe, expect, it } from 'vitest';
import { parseLedgerEvent } from '../../../functions/events/parse';
import { ledgerEvent } from '../../support/ledger-events';

const subject = '33333333-3333-4333-8333-333333333333';
const valid = ledgerEvent({ id: 'e1', subject, sequence: 7, paymentId: 'p1' });

describe('parseLedgerEvent', () => {
  it('maps a CloudEvent to the core input', () => {
    expect(parseLedgerEvent(JSON.stringify(valid))).toEqual({
      ok: true,
      event: {
        source: 'urn:producer:a',
        id: 'e1',
        type: 'credit',
        accountId: subject,
        sequence: 7,
        amount: 100,
        currency: 'EUR',
        paymentId: 'p1',
      },
    });
  });

  it('accepts a decimal-string sequence and unknown extension attributes', () => {
    const parsed = parseLedgerEvent(
      JSON.stringify({ ...valid, sequence: '12', traceparent: '00-abc-01' }),
    );
    expect(parsed).toMatchObject({ ok: true, event: { sequence: 12 } });
  });

  it.each([
    ['not JSON', '{', 'invalid_json'],
    ['another specversion', { ...valid, specversion: '0.3' }, 'schema_invalid'],
    ['an unknown type', { ...valid, type: 'ledger.refund.v1' }, 'schema_invalid'],
    ['a subject that is no account id', { ...valid, subject: 'acct-1' }, 'schema_invalid'],
    ['sequence 0', { ...valid, sequence: 0 }, 'schema_invalid'],
    ['a fractional sequence', { ...valid, sequence: 1.5 }, 'schema_invalid'],
    ['a negative amount', { ...valid, data: { amount: -1, currency: 'EUR' } }, 'schema_invalid'],
    [
      'an unknown data field',
      { ...valid, data: { amount: 1, currency: 'EUR', fee: 1 } },
      'schema_invalid',
    ],
    ['no id', { ...valid, id: '' }, 'schema_invalid'],
  ])('rejects %s as %s', (_name, body, code) => {
    const parsed = parseLedgerEvent(typeof body === 'string' ? body : JSON.stringify(body));
    expect(parsed).toMatchObject({ ok: false, code });
    if (!parsed.ok) expect(parsed.detail.length).toBeGreaterThan(0);
  });
});

describe('parseLedgerEvent: ledger.transfer.v1 (docs/contract.md §10)', () => {
  const to = '44444444-4444-4444-8444-444444444444';
  const transfer = ledgerEvent({ type: 'ledger.transfer.v1', id: 't1', subject, toAccountId: to });

  it('maps subject to the source and data.toAccountId to the destination', () => {
    expect(parseLedgerEvent(JSON.stringify(transfer))).toMatchObject({
      ok: true,
      event: { type: 'transfer', accountId: subject, toAccountId: to, amount: 100 },
    });
  });

  it.each([
    ['no destination', ledgerEvent({ type: 'ledger.transfer.v1', subject })],
    [
      'the subject as destination (any case)',
      { ...transfer, data: { ...(transfer.data as object), toAccountId: subject.toUpperCase() } },
    ],
    [
      'a destination that is no account id',
      { ...transfer, data: { ...(transfer.data as object), toAccountId: 'acct-2' } },
    ],
    ['a destination on a credit', ledgerEvent({ subject, toAccountId: to })],
  ])('rejects %s as schema_invalid', (_name, body) => {
    expect(parseLedgerEvent(JSON.stringify(body))).toMatchObject({
      ok: false,
      code: 'schema_invalid',
    });
  });
});

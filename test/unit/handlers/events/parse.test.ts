import { describe, expect, it } from 'vitest';
import { parseLedgerEvent } from '../../../../functions/handlers/events/parse';
import { ledgerEvent } from '../../../../kit/ledger-events';

const subject = '33333333-3333-4333-8333-333333333333';
const valid = ledgerEvent({ id: 'e1', subject, sequence: 7, paymentId: 'p1' });

describe('parseLedgerEvent', () => {
  it('maps a CloudEvent to the domain input', () => {
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
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
  });

  it('accepts a source of exactly 512 UTF-8 bytes and well-formed astral characters', () => {
    const source = `${'源'.repeat(170)}ab`; // 510 + 2 bytes
    const parsed = parseLedgerEvent(
      JSON.stringify({ ...valid, source, data: { amount: 1, currency: 'EUR', reference: '😀' } }),
    );
    expect(parsed).toMatchObject({ ok: true, event: { source, reference: '😀' } });
  });

  it('lower-cases the subject (UUIDs are case-insensitive, docs/contract.md §4)', () => {
    const mixed = 'ABCDEF01-2345-4678-9abc-DEF012345678';
    const parsed = parseLedgerEvent(JSON.stringify({ ...valid, subject: mixed }));
    expect(parsed).toMatchObject({ ok: true, event: { accountId: mixed.toLowerCase() } });
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
    // The sort key SOURCE#<source> is limited in bytes (docs/contract.md §6): 513 bytes is one too many.
    [
      'a source of 171 three-byte characters',
      { ...valid, source: '源'.repeat(171) },
      'schema_invalid',
    ],
    ['a source of 400 CJK characters', { ...valid, source: '源'.repeat(400) }, 'schema_invalid'],
    ['a lone surrogate in the source', { ...valid, source: 'urn:\ud800' }, 'validation_failed'],
    [
      'a lone surrogate in the reference',
      { ...valid, data: { amount: 1, currency: 'EUR', reference: 'x\udc00' } },
      'validation_failed',
    ],
    ['a lone surrogate in an extension', { ...valid, note: '\ud83d' }, 'validation_failed'],
  ])('rejects %s as %s', (_name, body, code) => {
    // JSON.stringify would escape a lone surrogate as \\udXXX; producers send the JSON escape.
    const text = typeof body === 'string' ? body : JSON.stringify(body).replace(/\\\\u/g, '\\u');
    const parsed = parseLedgerEvent(text);
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

describe('parseLedgerEvent: ledger.transaction.v1 and metadata (docs/contract.md §16)', () => {
  const other = '44444444-4444-4444-8444-444444444444';
  const legs = [
    { accountId: subject.toUpperCase(), direction: 'debit' as const, amount: 30 },
    { accountId: other, direction: 'credit' as const, amount: 30 },
  ];
  const transaction = ledgerEvent({
    type: 'ledger.transaction.v1',
    subject,
    legs,
    metadata: { order: '9' },
  });

  it('maps the legs (account ids lower-cased), the total and the metadata', () => {
    expect(parseLedgerEvent(JSON.stringify(transaction))).toMatchObject({
      ok: true,
      event: {
        type: 'transaction',
        accountId: subject,
        amount: 30,
        currency: 'EUR',
        transaction: {
          currency: 'EUR',
          legs: [
            { accountId: subject, direction: 'debit', amount: 30 },
            { accountId: other, direction: 'credit', amount: 30 },
          ],
        },
        metadata: { order: '9' },
      },
    });
  });

  it('accepts metadata on every type, and hashes it', () => {
    const plain = parseLedgerEvent(JSON.stringify(valid));
    const tagged = parseLedgerEvent(
      JSON.stringify(
        ledgerEvent({ id: 'e1', subject, sequence: 7, paymentId: 'p1', metadata: { a: 'b' } }),
      ),
    );
    expect(tagged).toMatchObject({ ok: true, event: { metadata: { a: 'b' } } });
    const hashOf = (p: typeof plain) => (p.ok && 'event' in p ? p.event.contentHash : undefined);
    expect(hashOf(plain)).not.toBe(hashOf(tagged));
    expect(hashOf(plain)).toBeDefined();
  });

  it.each([
    [
      'unbalanced legs',
      { ...transaction, data: { currency: 'EUR', legs: [legs[0], { ...legs[1], amount: 29 }] } },
    ],
    ['a subject that is not the first debit', { ...transaction, subject: other }],
    ['one leg', { ...transaction, data: { currency: 'EUR', legs: [legs[0]] } }],
    [
      'an account twice',
      {
        ...transaction,
        data: { currency: 'EUR', legs: [legs[0], { ...legs[0], direction: 'credit' }] },
      },
    ],
    ['an amount besides the legs', { ...transaction, data: { currency: 'EUR', legs, amount: 30 } }],
    ['legs on a credit', { ...valid, data: { amount: 1, currency: 'EUR', legs } }],
    ['empty metadata', ledgerEvent({ subject, metadata: {} })],
  ])('rejects %s as schema_invalid', (_name, body) => {
    expect(parseLedgerEvent(JSON.stringify(body))).toMatchObject({
      ok: false,
      code: 'schema_invalid',
    });
  });

  it('rejects a metadata key __proto__ as schema_invalid instead of dropping it', () => {
    const body = JSON.stringify(valid).replace('"data":{', '"data":{"metadata":{"__proto__":"x"},');
    expect(parseLedgerEvent(body)).toMatchObject({
      ok: false,
      code: 'schema_invalid',
      detail: expect.stringContaining('__proto__'),
    });
  });
});

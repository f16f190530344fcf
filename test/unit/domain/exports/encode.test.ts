import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../../../functions/contract/exports';
import type { LedgerEntry } from '../../../../functions/domain/accounts/model';
import {
  csvEncoder,
  encoderFor,
  guardFormula,
  jsonLinesEncoder,
} from '../../../../functions/domain/exports/encode';

const entry: LedgerEntry = {
  id: '6f1c0a52-4c57-4b8e-9a57-0c2b7b1f4e11',
  accountId: '0b7c8c1e-1f7a-4a55-8f3e-3b3f7f0f9a01',
  type: 'debit',
  amount: 1250,
  currency: 'EUR',
  reference: 'rent, "March"',
  paymentId: 'pay-1',
  origin: 'http',
  createdAt: '2026-03-01T10:00:00.000Z',
  effectiveAt: '2026-03-01T10:00:00.000Z',
};

/** A strict RFC 4180 reader for one CRLF-terminated record: the test's independent oracle. */
function parseCsvRecord(line: string): string[] {
  expect(line.endsWith('\r\n')).toBe(true);
  const text = line.slice(0, -2);
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        expect(quote).toBeGreaterThanOrEqual(0);
        cell += text.slice(i, quote);
        i = quote + 1;
        if (text[i] === '"') {
          cell += '"';
          i++;
        } else break;
      }
    } else {
      const comma = text.indexOf(',', i);
      const end = comma < 0 ? text.length : comma;
      cell = text.slice(i, end);
      expect(cell).not.toMatch(/["\r\n]/);
      i = end;
    }
    cells.push(cell);
    if (i >= text.length) return cells;
    expect(text[i]).toBe(',');
    i++;
  }
}

describe('CSV encoder (docs/contract.md §14 "Exports")', () => {
  it('writes the header with the contract columns in order, CRLF-terminated', () => {
    expect(csvEncoder.header).toBe(
      'id,createdAt,type,amount,currency,origin,reference,paymentId,transferId,' +
        'counterpartyAccountId,holdId,ledgerTransactionId,reversalOf,direction,metadata,effectiveAt\r\n',
    );
  });

  it('writes one row per entry: unsigned amount, RFC 4180 quoting, empty absent columns', () => {
    expect(csvEncoder.row(entry)).toBe(
      '6f1c0a52-4c57-4b8e-9a57-0c2b7b1f4e11,2026-03-01T10:00:00.000Z,debit,1250,EUR,http,' +
        '"rent, ""March""",pay-1,,,,,,,,2026-03-01T10:00:00.000Z\r\n',
    );
  });

  it('fills the transfer and hold columns from the listing item', () => {
    const leg = { ...entry, type: 'transfer_out', transferId: 't-1', counterpartyAccountId: 'a-2' };
    expect(parseCsvRecord(csvEncoder.row(leg)).slice(8, 11)).toEqual(['t-1', 'a-2', '']);
    const capture = parseCsvRecord(csvEncoder.row({ ...entry, holdId: 'h-1' }));
    expect(capture[CSV_COLUMNS.indexOf('holdId')]).toBe('h-1');
  });

  it('appends the ledger-depth columns: reversalOf as kind:id, metadata as JSON text (§14)', () => {
    const reversal = {
      ...entry,
      type: 'reversal',
      ledgerTransactionId: 'l-1',
      reversalOf: { kind: 'ledger_transaction', id: 'l-1' },
      direction: 'credit',
      metadata: { order: '42', note: 'a, "b"' },
    };
    const cells = parseCsvRecord(csvEncoder.row(reversal));
    expect(cells.slice(11, 14)).toEqual(['l-1', 'ledger_transaction:l-1', 'credit']);
    expect(JSON.parse(cells[CSV_COLUMNS.indexOf('metadata')] ?? '')).toEqual(reversal.metadata);
  });

  it.each(['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])(
    'guards the formula trigger %j in text columns',
    (reference) => {
      const cells = parseCsvRecord(csvEncoder.row({ ...entry, reference, paymentId: reference }));
      expect(cells[CSV_COLUMNS.indexOf('reference')]).toBe(`'${reference}`);
      expect(cells[CSV_COLUMNS.indexOf('paymentId')]).toBe(`'${reference}`);
    },
  );

  it('leaves non-text columns alone even when they start with a trigger', () => {
    const odd = { ...entry, id: '-id', createdAt: '+t', currency: '=X', origin: '@o' };
    const cells = parseCsvRecord(csvEncoder.row(odd));
    expect(cells.slice(0, 6)).toEqual(['-id', '+t', 'debit', '1250', '=X', '@o']);
  });

  it('round-trips any reference through an RFC 4180 reader (guarded when it is a formula)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (reference) => {
        const cells = parseCsvRecord(csvEncoder.row({ ...entry, reference }));
        expect(cells).toHaveLength(CSV_COLUMNS.length);
        expect(cells[CSV_COLUMNS.indexOf('reference')]).toBe(guardFormula(reference));
      }),
    );
  });
});

describe('JSON Lines encoder', () => {
  it('writes each listing item verbatim on its own LF-terminated line, with no header', () => {
    expect(jsonLinesEncoder.header).toBe('');
    const line = jsonLinesEncoder.row(entry);
    expect(line).toBe(`${JSON.stringify(entry)}\n`);
    expect(JSON.parse(line)).toEqual(entry);
  });

  it('is chosen for the json format, CSV for csv', () => {
    expect(encoderFor('json')).toBe(jsonLinesEncoder);
    expect(encoderFor('csv')).toBe(csvEncoder);
  });
});

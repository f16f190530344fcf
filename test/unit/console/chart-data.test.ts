import { describe, expect, it } from 'vitest';
import type { JournalRow, MonitorRow } from '../../../console/shared/api';
import {
  chartData,
  SAME_TIME_STEP_SECONDS,
  SINGLE_INSTANT_PAD_SECONDS,
} from '../../../console/web/components/chart-data';

/** The account page's balance chart (docs/contract.md §29): what it draws. */
const record = (sequence: number, committedAt: string, balanceAfter: number): JournalRow => ({
  sequence,
  kind: 'credit',
  balanceDelta: 150,
  availableDelta: 150,
  balanceAfter,
  availableAfter: balanceAfter,
  committedAt,
});
const AT = '2026-12-04T10:00:00.000Z';
const SECONDS = Date.parse(AT) / 1000;
const eur = (minor: number) => `${(minor / 100).toFixed(2)} EUR`;

const lowFunds: MonitorRow = {
  id: 'm1',
  field: 'available',
  operator: 'lt',
  value: 1000,
  state: 'false',
  stateSince: AT,
  createdAt: AT,
};

describe('the balance chart', () => {
  it('draws one record with an axis of a minute around it, not years', () => {
    const data = chartData([record(1, AT, 2500)], [], 2, eur);
    const pad = SINGLE_INSTANT_PAD_SECONDS;
    // The edges, the record, and its balance holding to the right edge.
    expect(data.x).toEqual([SECONDS - pad, SECONDS, SECONDS + pad]);
    expect(data.balance).toEqual([23.5, 25, 25]); // before it: 2500 less its delta of 150
    expect(data.range).toEqual([
      SECONDS - SINGLE_INSTANT_PAD_SECONDS,
      SECONDS + SINGLE_INSTANT_PAD_SECONDS,
    ]);
  });

  it('steps records committed together apart, in journal order, on a readable axis', () => {
    // Three deferred credits the folder posted in one transaction: one commit time.
    const data = chartData(
      [record(1, AT, 150), record(2, AT, 300), record(3, AT, 450)],
      [],
      2,
      eur,
    );
    const steps = [0, 1, 2].map((n) => SECONDS + n * SAME_TIME_STEP_SECONDS);
    for (const [i, x] of data.x.slice(1, -1).entries()) expect(x).toBeCloseTo(steps[i] ?? 0, 6);
    for (let i = 1; i < data.x.length; i++) expect(data.x[i]).toBeGreaterThan(data.x[i - 1] ?? 0);
    expect(data.balance).toEqual([0, 1.5, 3, 4.5, 4.5]);
    const [from, to] = data.range;
    expect(to - from).toBeLessThanOrEqual(2 * SINGLE_INSTANT_PAD_SECONDS + 1);
    expect(from).toBeLessThan(SECONDS);
  });

  it("keeps the axis to the records' span when they are apart", () => {
    const later = '2026-12-04T11:00:00.000Z';
    const data = chartData([record(1, AT, 150), record(2, later, 300)], [], 2, eur);
    expect(data.range[0]).toBeGreaterThan(SECONDS - 100);
    expect(data.range[1]).toBeLessThan(SECONDS + 3600 + 100);
  });

  it('draws each monitor threshold as a flat line in major units, labelled in words', () => {
    const data = chartData([record(1, AT, 2500), record(2, AT, 800)], [lowFunds], 2, eur);
    // Edge to edge, so that it shows even beside a single record.
    expect(data.thresholds).toEqual([
      { label: 'monitor: available < 10.00 EUR', y: [10, 10, 10, 10] },
    ]);
  });

  it("scales by the currency's digits (JPY has none)", () => {
    expect(chartData([record(1, AT, 2500)], [], 0, String).balance).toEqual([2350, 2500, 2500]);
  });
});

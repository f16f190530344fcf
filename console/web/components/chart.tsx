import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { JournalRow } from '../../shared/api';
import { money, when } from './format';

/**
 * Balance and available over time, one point per journal record (its after-values at its
 * commit time). The figure's caption says in words what the chart shows.
 */
export function BalanceChart(props: { records: readonly JournalRow[]; currency: string }) {
  const host = useRef<HTMLDivElement>(null);
  const { records, currency } = props;
  useEffect(() => {
    const element = host.current;
    if (!element || records.length === 0) return;
    const scale = (v: number) => v / 10 ** digitsOf(currency);
    const data: uPlot.AlignedData = [
      records.map((r) => Date.parse(r.committedAt) / 1000),
      records.map((r) => scale(r.balanceAfter)),
      records.map((r) => scale(r.availableAfter)),
    ];
    // A balance holds until the next change: steps, not slopes.
    const steps = uPlot.paths.stepped?.({ align: 1 });
    const plot = new uPlot(
      {
        width: Math.max(320, element.clientWidth || 800),
        height: 260,
        series: [
          {},
          { label: `balance (${currency})`, stroke: '#1f5fa8', width: 2, paths: steps },
          {
            label: `available (${currency})`,
            stroke: '#c2571a',
            width: 2,
            dash: [6, 4],
            paths: steps,
          },
        ],
        axes: [{}, { size: 70 }],
      },
      data,
      element,
    );
    return () => plot.destroy();
  }, [records, currency]);

  if (records.length === 0) {
    return <p class="empty">No journal records yet: the chart starts with the first change.</p>;
  }
  const first = records[0];
  const last = records[records.length - 1];
  return (
    <figure class="chart" data-testid="balance-chart" data-points={records.length}>
      <div ref={host} role="img" aria-label="balance and available over time" />
      <figcaption>
        Balance over time from {records.length} journal record(s), {when(first?.committedAt)} to{' '}
        {when(last?.committedAt)}; last balance {last ? money(last.balanceAfter, currency) : '—'}.
      </figcaption>
    </figure>
  );
}

function digitsOf(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

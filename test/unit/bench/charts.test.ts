import { describe, expect, it } from 'vitest';
import { barChart, lineChart, niceTicks, wrapLabel } from '../../../bench/charts';

describe('bench charts', () => {
  it.each([
    [9.3, [0, 2, 4, 6, 8, 10]],
    [1000, [0, 200, 400, 600, 800, 1000]],
    [0, [0, 1]],
  ])('ticks for a maximum of %d are round and reach it', (max, ticks) => {
    expect(niceTicks(max)).toEqual(ticks);
  });

  it('draws one polyline per series with the legend names escaped', () => {
    const svg = lineChart({
      title: 'Replay <p50>',
      xLabel: 'percentile',
      yLabel: 'ms',
      xTicks: [1, 50, 99],
      series: [
        {
          name: 'ours',
          color: '#000',
          points: [
            [1, 1],
            [50, 2],
            [99, 4],
          ],
        },
        {
          name: 'a & b',
          color: '#f00',
          points: [
            [1, 2],
            [99, 3],
          ],
        },
      ],
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('<title>Replay &lt;p50&gt;</title>');
    expect(svg).toContain('a &amp; b');
    expect(svg).not.toContain('NaN');
  });

  it('draws a bar per side and group, with a whisker only where a spread is given', () => {
    const svg = barChart({
      title: 'throughput',
      yLabel: 'req/s',
      groups: [
        { label: '10', bars: [{ name: 'ours', color: '#00f', value: 300, min: 280, max: 310 }] },
        { label: '50', bars: [{ name: 'ours', color: '#00f', value: 200 }] },
      ],
    });
    expect(svg.match(/<rect [^>]*fill="#00f">/g)).toHaveLength(2);
    expect(svg.match(/<line [^>]*stroke="#222"/g)).toHaveLength(1);
    expect(svg).not.toContain('NaN');
  });

  it.each([
    ['http', ['http']],
    ['Powertools handler', ['Powertools', 'handler']],
    ['dynamodb-client', ['dynamodb-', 'client']],
    ['50 in flight, 100 accounts', ['50 in', 'flight, 100 accounts']],
  ])('wraps the bar label %j into at most two lines', (label, lines) => {
    expect(wrapLabel(label, 11)).toEqual(lines);
  });
});

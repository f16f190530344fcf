/** Hand-written SVG charts for docs/benchmarks.md: percentile curves and bars with whiskers. */

export interface Series {
  readonly name: string;
  readonly color: string;
  /** [x, y] points in data units, x ascending. */
  readonly points: readonly (readonly [number, number])[];
}

export interface Bar {
  readonly name: string;
  readonly color: string;
  readonly value: number;
  /** Whisker ends, e.g. the lowest and highest round (the chart's title says which). */
  readonly min?: number;
  readonly max?: number;
}

const WIDTH = 760;
const HEIGHT = 320;
const PAD = { left: 56, right: 16, top: 36, bottom: 64 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 1 : 0));

/**
 * A bar group's label in at most two lines of about `width` characters, broken at spaces and
 * after hyphens, so neighbouring labels do not overlap.
 */
export function wrapLabel(label: string, width = 11): string[] {
  const pieces = label.split(' ').flatMap((word) => word.split(/(?<=-)/));
  const lines: string[] = [];
  for (const piece of pieces) {
    const last = lines.at(-1);
    const joined =
      last === undefined ? piece : last.endsWith('-') ? last + piece : `${last} ${piece}`;
    if (last !== undefined && (joined.length <= width || lines.length === 2)) {
      lines[lines.length - 1] = joined;
    } else {
      lines.push(piece);
    }
  }
  return lines;
}

/** About five round ticks from 0 to at least `max`. */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let t = 0; t < max + step; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

function frame(title: string, yLabel: string, yTicks: number[], body: string[], legend: Bar[]) {
  const yMax = yTicks.at(-1) ?? 1;
  const y = (v: number) => PAD.top + PLOT_H - (v / yMax) * PLOT_H;
  const grid = yTicks.map(
    (t) =>
      `<line x1="${PAD.left}" x2="${PAD.left + PLOT_W}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/>` +
      `<text x="${PAD.left - 6}" y="${y(t) + 4}" text-anchor="end">${fmt(t)}</text>`,
  );
  const step = Math.min(190, PLOT_W / Math.max(1, legend.length));
  const keys = legend.map(
    (item, i) =>
      `<rect x="${PAD.left + i * step}" y="${HEIGHT - 18}" width="12" height="12" fill="${item.color}"/>` +
      `<text x="${PAD.left + 16 + i * step}" y="${HEIGHT - 8}">${escapeXml(item.name)}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14">${escapeXml(title)}</text>`,
    `<text transform="translate(14 ${PAD.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>`,
    ...grid,
    ...body,
    `<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${PAD.top + PLOT_H}" stroke="#333"/>`,
    `<line x1="${PAD.left}" x2="${PAD.left + PLOT_W}" y1="${PAD.top + PLOT_H}" y2="${PAD.top + PLOT_H}" stroke="#333"/>`,
    ...keys,
    '</svg>',
    '',
  ].join('\n');
}

/** Lines over a shared x range (e.g. latency by percentile). */
export function lineChart(options: {
  title: string;
  xLabel: string;
  yLabel: string;
  xTicks: readonly number[];
  series: readonly Series[];
}): string {
  const xs = options.series.flatMap((s) => s.points.map(([px]) => px));
  const xMin = Math.min(...options.xTicks, ...xs);
  const xMax = Math.max(...options.xTicks, ...xs);
  const yTicks = niceTicks(Math.max(...options.series.flatMap((s) => s.points.map(([, v]) => v))));
  const yMax = yTicks.at(-1) ?? 1;
  const x = (v: number) => PAD.left + ((v - xMin) / (xMax - xMin || 1)) * PLOT_W;
  const y = (v: number) => PAD.top + PLOT_H - (v / yMax) * PLOT_H;
  const body = [
    ...options.xTicks.map(
      (t) => `<text x="${x(t)}" y="${PAD.top + PLOT_H + 16}" text-anchor="middle">${fmt(t)}</text>`,
    ),
    `<text x="${PAD.left + PLOT_W / 2}" y="${PAD.top + PLOT_H + 34}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    ...options.series.map(
      (s) =>
        `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${s.points
          .map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`)
          .join(' ')}"/>`,
    ),
  ];
  const legend = options.series.map((s) => ({ name: s.name, color: s.color, value: 0 }));
  return frame(options.title, options.yLabel, yTicks, body, legend);
}

/** Groups of bars (one per side), each with a whisker when its ends are given. */
export function barChart(options: {
  title: string;
  yLabel: string;
  groups: readonly { label: string; bars: readonly Bar[] }[];
}): string {
  const top = Math.max(...options.groups.flatMap((g) => g.bars.map((b) => b.max ?? b.value)));
  const yTicks = niceTicks(top);
  const yMax = yTicks.at(-1) ?? 1;
  const y = (v: number) => PAD.top + PLOT_H - (v / yMax) * PLOT_H;
  const groupW = PLOT_W / Math.max(1, options.groups.length);
  const body: string[] = [];
  options.groups.forEach((group, g) => {
    const barW = Math.min(40, (groupW * 0.7) / Math.max(1, group.bars.length));
    const start = PAD.left + g * groupW + (groupW - barW * group.bars.length) / 2;
    group.bars.forEach((bar, b) => {
      const bx = start + b * barW;
      const mid = bx + barW / 2;
      body.push(
        `<rect x="${bx.toFixed(1)}" y="${y(bar.value).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(PAD.top + PLOT_H - y(bar.value)).toFixed(1)}" fill="${bar.color}"><title>${escapeXml(`${bar.name}: ${fmt(bar.value)}`)}</title></rect>`,
      );
      if (bar.min !== undefined && bar.max !== undefined) {
        body.push(
          `<line x1="${mid - 1}" x2="${mid - 1}" y1="${y(bar.min).toFixed(1)}" y2="${y(bar.max).toFixed(1)}" stroke="#222"/>`,
        );
      }
    });
    const x = PAD.left + g * groupW + groupW / 2;
    const lines = wrapLabel(group.label, Math.max(8, Math.floor(groupW / 6.5)));
    body.push(
      `<text x="${x}" y="${PAD.top + PLOT_H + 16}" text-anchor="middle">${lines
        .map((line, i) => `<tspan x="${x}" dy="${i === 0 ? 0 : 13}">${escapeXml(line)}</tspan>`)
        .join('')}</text>`,
    );
  });
  const seen = new Map<string, Bar>();
  for (const bar of options.groups.flatMap((g) => g.bars)) seen.set(bar.name, bar);
  return frame(options.title, options.yLabel, yTicks, body, [...seen.values()]);
}

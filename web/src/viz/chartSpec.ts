/**
 * From an experiment result to the charts that show it (pure data, no D3): series sharing an
 * x and a y label go on one chart, in the order the experiment wrote them; each chart decides
 * whether its axes read better on a log scale.
 */
import type { ExperimentResult, SeriesKind } from '../model/types';

export interface ChartSeries {
  name: string;
  kind: SeriesKind;
  points: Array<[number, number]>;
  /** Index into the palette: series of the same quantity share it. */
  colour: number;
}

export interface ChartSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xLog: boolean;
  yLog: boolean;
  series: ChartSeries[];
}

/**
 * "mean response (simulated)" -> "mean response": the quantity, without its source. Series are
 * named "<quantity> (<source>)"; the source may hold parentheses of its own.
 */
export function quantityOf(name: string): string {
  const t = name.trim();
  if (!t.endsWith(')')) return t;
  let depth = 0;
  for (let i = t.length - 1; i >= 0; i--) {
    if (t[i] === ')') depth++;
    else if (t[i] === '(' && --depth === 0) return i > 0 && t[i - 1] === ' ' ? t.slice(0, i).trim() : t;
  }
  return t;
}

function stripUnit(label: string): string {
  return label.replace(/\s*\([^)]*\)\s*$/, '');
}

function geometric(xs: number[]): boolean {
  const v = [...new Set(xs)].sort((a, b) => a - b);
  if (v.length < 3 || v[0]! <= 0) return false;
  const ratios = v.slice(1).map((x, i) => x / v[i]!).sort((a, b) => a - b);
  return v[v.length - 1]! / v[0]! >= 16 && ratios[Math.floor(ratios.length / 2)]! >= 1.9;
}

function wideRange(ys: number[]): boolean {
  const pos = ys.filter((y) => y > 0);
  return pos.length === ys.length && pos.length > 2 && Math.max(...pos) / Math.min(...pos) >= 50;
}

export function chartsFromResult(r: ExperimentResult): ChartSpec[] {
  const charts: ChartSpec[] = [];
  const quantities = new Map<ChartSpec, string[]>();
  for (const s of r.series) {
    if (s.points.length === 0) continue;
    let chart = charts.find((c) => c.xLabel === s.x_label && c.yLabel === s.y_label);
    if (!chart) {
      chart = {
        id: `chart-${charts.length}`,
        title: `${stripUnit(s.y_label)} against ${stripUnit(s.x_label)}`,
        xLabel: s.x_label,
        yLabel: s.y_label,
        xLog: false,
        yLog: false,
        series: [],
      };
      charts.push(chart);
    }
    const seen = quantities.get(chart) ?? [];
    quantities.set(chart, seen);
    const q = quantityOf(s.name);
    if (!seen.includes(q)) seen.push(q);
    chart.series.push({ name: s.name, kind: s.kind, points: s.points, colour: seen.indexOf(q) });
  }
  for (const c of charts) {
    const measured = c.series.filter((s) => s.kind === 'measured').flatMap((s) => s.points);
    const all = c.series.flatMap((s) => s.points);
    c.xLog = geometric(measured.map((p) => p[0]));
    c.yLog = wideRange(all.map((p) => p[1]));
  }
  return charts;
}

/**
 * The Cluster page's two time charts, over wall-clock seconds (the front-end's clock, since the
 * page connected), the last WINDOW_S seconds: requests each back-end served per second (one line
 * per node in its ring colour, named at its end so colour is not the only cue), and the
 * front-end's client latency p50 (solid) and p99 (dashed) in ms, with gaps where no request
 * finished. Pure: a Scene from the history samples.
 */
import type { HistorySample } from '../model/clusterView';
import { FONT_SMALL, type Scene, type SceneItem } from './canvasScene';
import { nodeColour } from './ringPalette';
import { niceMax, timeFrame, timeX, valueY, type TimeFrame } from './timeChart';

export const WINDOW_S = 60;
const LEFT = 60;
const RIGHT = 72;
const TOP = 26;
const PLOT_H = 150;
const AXIS_H = 40;
export const P50_COLOUR = '#0072B2';
export const P99_COLOUR = '#D55E00';

function frame(samples: readonly HistorySample[], width: number): TimeFrame {
  const last = samples[samples.length - 1]?.t ?? 0;
  const t0 = Math.max(0, last - WINDOW_S);
  return { left: LEFT, top: TOP, plotW: Math.max(120, width - LEFT - RIGHT), plotH: PLOT_H, t0: t0 * 1e9, span: Math.max(10, last - t0) * 1e9 };
}

/** A round axis top for latencies: 1, 2 or 5 × 10^n, at least 0.1 ms (loopback answers in well under 1 ms). */
export function niceCeil(v: number): number {
  if (v >= 10) return niceMax(v);
  const m = Math.max(0.1, v);
  const p = 10 ** Math.floor(Math.log10(m));
  const r = m / p;
  return Number(((r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * p).toPrecision(2));
}

/** The samples in the chart's window. */
function visible(samples: readonly HistorySample[], f: TimeFrame): HistorySample[] {
  return samples.filter((s) => s.t * 1e9 >= f.t0);
}

/** Polylines through the points, broken where a value is null. */
function runs(items: SceneItem[], pts: Array<[number, number] | null>, stroke: string, dash?: number[]): void {
  let cur: Array<[number, number]> = [];
  const flush = () => {
    if (cur.length > 1) items.push({ t: 'path', points: cur, stroke, lw: 2, ...(dash ? { dash } : {}) });
    else if (cur.length === 1) items.push({ t: 'circle', cx: cur[0]![0], cy: cur[0]![1], r: 2, fill: stroke });
    cur = [];
  };
  for (const p of pts) {
    if (p) cur.push(p);
    else flush();
  }
  flush();
}

/** Requests served per second by each back-end, one line per node. */
export function throughputScene(samples: readonly HistorySample[], nodeIds: number[], width: number): Scene {
  const items: SceneItem[] = [];
  const f = frame(samples, width);
  const shown = visible(samples, f);
  const max = niceMax(Math.max(0, ...shown.flatMap((s) => [...s.perNode.values()])));
  timeFrame(items, f, max, '', 'wall-clock time (s since the page connected)');
  items.push({ t: 'text', x: 0, y: 12, text: 'requests served per second, by back-end (requests/s)', font: FONT_SMALL });
  if (shown.length === 0) items.push({ t: 'text', x: LEFT + 10, y: TOP + PLOT_H / 2, text: 'Waiting for the first status…', font: FONT_SMALL, fill: '#4b5563' });
  const ends: Array<{ id: number; y: number }> = [];
  for (const id of nodeIds) {
    const pts = shown.map((s): [number, number] | null => (s.perNode.has(id) ? [timeX(f, s.t * 1e9), valueY(f, s.perNode.get(id)!, max)] : null));
    runs(items, pts, nodeColour(id));
    const lastPt = [...pts].reverse().find((p) => p !== null);
    if (lastPt) ends.push({ id, y: lastPt[1] });
  }
  // Names at the right edge, nudged apart so they do not overlap.
  // Stacked upwards from the lowest, so the bottom one stays clear of the time axis's labels.
  ends.sort((a, b) => b.y - a.y);
  let prev = Infinity;
  for (const e of ends) {
    const y = Math.min(e.y + 4, prev - 12, f.top + f.plotH);
    prev = y;
    items.push({ t: 'line', x1: f.left + f.plotW + 10, y1: y - 4, x2: f.left + f.plotW + 18, y2: y - 4, stroke: nodeColour(e.id), lw: 3 });
    items.push({ t: 'text', x: f.left + f.plotW + 21, y, text: `node ${e.id}`, font: FONT_SMALL, fill: '#1f2328' });
  }
  return { width, height: TOP + PLOT_H + AXIS_H, items };
}

/** The front-end's client latency, p50 solid and p99 dashed, in ms. */
export function latencyScene(samples: readonly HistorySample[], width: number): Scene {
  const items: SceneItem[] = [];
  const f = frame(samples, width);
  const shown = visible(samples, f);
  const max = niceCeil(Math.max(0, ...shown.map((s) => s.p99 ?? 0)));
  timeFrame(items, f, max, '', 'wall-clock time (s since the page connected)');
  items.push({ t: 'text', x: 0, y: 12, text: 'client latency at the front-end (ms):', font: FONT_SMALL });
  items.push({ t: 'line', x1: 200, y1: 8, x2: 218, y2: 8, stroke: P50_COLOUR, lw: 2 });
  items.push({ t: 'text', x: 222, y: 12, text: 'p50 (median)', font: FONT_SMALL });
  items.push({ t: 'line', x1: 310, y1: 8, x2: 328, y2: 8, stroke: P99_COLOUR, lw: 2, dash: [5, 3] });
  items.push({ t: 'text', x: 332, y: 12, text: 'p99', font: FONT_SMALL });
  if (shown.length > 0 && shown.every((s) => s.p50 === null)) {
    items.push({ t: 'text', x: LEFT + 10, y: TOP + PLOT_H / 2, text: 'No requests finished yet: start the load generator below.', font: FONT_SMALL, fill: '#4b5563' });
  }
  const at = (v: number | null, s: HistorySample): [number, number] | null => (v === null ? null : [timeX(f, s.t * 1e9), valueY(f, v, max)]);
  runs(items, shown.map((s) => at(s.p50, s)), P50_COLOUR);
  runs(items, shown.map((s) => at(s.p99, s)), P99_COLOUR, [5, 3]);
  return { width, height: TOP + PLOT_H + AXIS_H, items };
}

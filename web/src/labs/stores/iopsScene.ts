/**
 * The shared rates chart: write IOPS, read IOPS (the snapshot's, over its last second: operations
 * per second of the time spent in them) and the operations waiting at each store, one line per
 * store in the store's colour and dash (storesPalette), each plot with its own value axis over
 * one axis of virtual time (s), and a cursor (a sample picked by the pointer or the arrow keys)
 * marked on each with a dot per store. The legend and the cursor's readout are text beside the canvas.
 * Pure: iopsScene() computes a Scene from the history.
 */
import { fmt, fmtTicks } from '../../viz/format';
import { FONT_BOLD, FONT_SMALL, type Scene, type SceneItem } from '../../viz/canvasScene';
import { niceMax, timeX, valueY, type TimeFrame } from '../../viz/timeChart';
import { nearestSample, type IopsHistory } from './iopsHistory';
import { ST, storeStyle } from './storesPalette';

const LEFT = 52;
const RIGHT = 12;
const PLOT_H = 72;
const GAP = 40;
const TOP = 22;

export interface IopsLayout {
  f1: TimeFrame;
  f2: TimeFrame;
  f3: TimeFrame;
  height: number;
}

export function iopsLayout(h: IopsHistory, width: number): IopsLayout {
  const plotW = Math.max(100, width - LEFT - RIGHT);
  const n = h.t.length;
  const first = n > 0 ? h.t[0]! : 0;
  const last = n > 0 ? h.t[n - 1]! : 0;
  const span = Math.max(1e9, last - first);
  const f1: TimeFrame = { left: LEFT, top: TOP, plotW, plotH: PLOT_H, t0: first, span };
  const f2: TimeFrame = { ...f1, top: TOP + PLOT_H + GAP };
  const f3: TimeFrame = { ...f1, top: TOP + 2 * (PLOT_H + GAP) };
  return { f1, f2, f3, height: f3.top + PLOT_H + 40 };
}

function plot(items: SceneItem[], h: IopsHistory, f: TimeFrame, series: number[][], title: string, empty: string, cursor: number): void {
  let max = 0;
  for (const s of series) for (const v of s) max = Math.max(max, v);
  const ymax = niceMax(max);
  const bottom = f.top + f.plotH;
  items.push({ t: 'text', x: 4, y: f.top - 8, text: title, font: FONT_BOLD, fill: ST.ink });
  items.push({ t: 'line', x1: f.left, y1: bottom, x2: f.left + f.plotW, y2: bottom, stroke: ST.axis });
  items.push({ t: 'line', x1: f.left, y1: f.top, x2: f.left, y2: bottom, stroke: ST.axis });
  const ticks = [0, ymax / 2, ymax];
  const labels = fmtTicks(ticks);
  ticks.forEach((tv, i) => {
    const y = valueY(f, tv, ymax);
    items.push({ t: 'line', x1: f.left - 4, y1: y, x2: f.left, y2: y, stroke: ST.axis });
    items.push({ t: 'text', x: f.left - 6, y: y + 4, text: labels[i]!, font: FONT_SMALL, align: 'right' });
  });
  if (max <= 0) {
    items.push({ t: 'text', x: f.left + f.plotW / 2, y: f.top + f.plotH / 2 + 4, text: empty, font: FONT_SMALL, align: 'center', fill: ST.axis });
    return;
  }
  series.forEach((vals, s) => {
    const st = storeStyle(h.kinds[s]!);
    const pts: Array<[number, number]> = vals.map((v, i) => [timeX(f, h.t[i]!), valueY(f, v, ymax)]);
    if (pts.length > 1) items.push({ t: 'path', points: pts, stroke: st.colour, lw: 2, dash: st.dash.length ? st.dash : undefined });
    else items.push({ t: 'dots', xy: pts.flat(), r: 2.5, fill: st.colour });
  });
  if (cursor >= 0 && cursor < h.t.length) {
    const x = timeX(f, h.t[cursor]!);
    items.push({ t: 'line', x1: x, y1: f.top, x2: x, y2: bottom, stroke: ST.ink, lw: 1, dash: [2, 2] });
    series.forEach((vals, s) => {
      items.push({ t: 'circle', cx: x, cy: valueY(f, vals[cursor] ?? 0, ymax), r: 3.5, fill: storeStyle(h.kinds[s]!).colour, stroke: '#ffffff', lw: 1.5 });
    });
  }
}

/** The chart at `width`; `cursor` a sample index or -1. */
export function iopsScene(h: IopsHistory, width: number, cursor = -1): Scene {
  const items: SceneItem[] = [];
  const { f1, f2, f3, height } = iopsLayout(h, width);
  const narrow = width < 420;
  plot(items, h, f1, h.write, narrow ? 'write IOPS (ops/s)' : 'write IOPS (ops/s of time spent writing)', 'no writes yet', cursor);
  plot(items, h, f2, h.read, narrow ? 'read IOPS (ops/s)' : 'read IOPS (ops/s of time spent reading)', narrow ? 'no reads yet' : 'no reads yet (the load is puts only)', cursor);
  plot(items, h, f3, h.queued, narrow ? 'waiting (ops)' : 'operations waiting (a store behind the rate)', 'no store behind the rate', cursor);
  const bottom = f3.top + f3.plotH;
  const span = f3.span;
  const stepS = span >= 20e9 ? 5 : span >= 8e9 ? 2 : span >= 3e9 ? 1 : span >= 1.2e9 ? 0.5 : 0.2;
  for (let s = Math.ceil(f3.t0 / 1e9 / stepS) * stepS; s * 1e9 <= f3.t0 + span + 1; s += stepS) {
    const x = timeX(f3, s * 1e9);
    items.push({ t: 'line', x1: x, y1: bottom, x2: x, y2: bottom + 4, stroke: ST.axis });
    items.push({ t: 'text', x, y: bottom + 16, text: fmt(Math.round(s * 10) / 10), font: FONT_SMALL, align: 'center' });
  }
  items.push({ t: 'text', x: f3.left + f3.plotW / 2, y: bottom + 32, text: 'virtual time (s)', font: FONT_SMALL, align: 'center' });
  return { width, height, items };
}

/** The sample under x (CSS px), or -1. */
export function sampleAtX(h: IopsHistory, width: number, x: number): number {
  if (h.t.length === 0) return -1;
  const { f1 } = iopsLayout(h, width);
  if (x < f1.left - 4 || x > f1.left + f1.plotW + 4) return -1;
  return nearestSample(h, f1.t0 + ((x - f1.left) / f1.plotW) * f1.span);
}

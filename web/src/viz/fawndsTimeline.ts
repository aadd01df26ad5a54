/**
 * Queries per second over the last seconds of virtual time, with the maintenance operations
 * shaded and their end locks darker (FAWN Fig 14's picture, live). Pure: timelineScene()
 * computes a Scene from the snapshot's timeline.
 */
import type { FawndsSnapshot } from '../model/fawndsTypes';
import { FONT, FONT_SMALL, type Scene, type SceneItem } from './canvasScene';

const LEFT = 56;
const RIGHT = 12;
const TOP = 22;
const PLOT_H = 96;
const AXIS_H = 40;

/** A round upper bound for the y axis: 1, 2 or 5 × 10^n, at least 10. */
export function niceMax(v: number): number {
  const m = Math.max(10, v);
  const p = 10 ** Math.floor(Math.log10(m));
  const r = m / p;
  return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * p;
}

export function timelineScene(tl: FawndsSnapshot['timeline'], nowNs: number, width: number): Scene {
  const items: SceneItem[] = [];
  const plotW = Math.max(100, width - LEFT - RIGHT);
  const n = tl.qps.length;
  const t0 = tl.first_ns;
  const t1 = Math.max(t0 + tl.bin_ns, nowNs);
  const span = Math.max(tl.bin_ns * 120, t1 - t0);
  const x = (t: number) => LEFT + ((t - t0) / span) * plotW;
  const ymax = niceMax(Math.max(0, ...tl.qps));
  const y = (q: number) => TOP + PLOT_H - (q / ymax) * PLOT_H;
  const clip = (a: number, b: number): [number, number] | null => {
    const xa = Math.max(LEFT, x(a));
    const xb = Math.min(LEFT + plotW, x(b));
    return xb > xa ? [xa, xb] : null;
  };
  for (const [s, e, kind] of tl.maintenance) {
    const c = clip(s, e);
    if (!c) continue;
    items.push({ t: 'rect', x: c[0], y: TOP, w: c[1] - c[0], h: PLOT_H, fill: 'rgba(230,159,0,0.18)', tag: kind });
    items.push({ t: 'text', x: c[0] + 2, y: TOP + 11, text: kind, font: FONT_SMALL, fill: '#8a5200' });
  }
  for (const [s, e] of tl.locks) {
    const c = clip(s, e);
    if (!c) continue;
    items.push({ t: 'rect', x: c[0], y: TOP, w: Math.max(1.5, c[1] - c[0]), h: PLOT_H, fill: 'rgba(31,35,40,0.55)', tag: 'lock' });
  }
  // Axes.
  items.push({ t: 'line', x1: LEFT, y1: TOP + PLOT_H, x2: LEFT + plotW, y2: TOP + PLOT_H, stroke: '#6b7280' });
  items.push({ t: 'line', x1: LEFT, y1: TOP, x2: LEFT, y2: TOP + PLOT_H, stroke: '#6b7280' });
  for (const q of [0, ymax / 2, ymax]) {
    items.push({ t: 'line', x1: LEFT - 4, y1: y(q), x2: LEFT, y2: y(q), stroke: '#6b7280' });
    items.push({ t: 'text', x: LEFT - 6, y: y(q) + 4, text: q.toLocaleString('en-US'), align: 'right', font: FONT_SMALL });
  }
  items.push({ t: 'text', x: 0, y: 12, text: 'queries per second (completed, per 50 ms bin)', font: FONT_SMALL });
  const stepS = span >= 10e9 ? 2 : span >= 4e9 ? 1 : 0.5;
  for (let s = Math.ceil(t0 / 1e9 / stepS) * stepS; s * 1e9 <= t0 + span; s += stepS) {
    const tx = x(s * 1e9);
    items.push({ t: 'line', x1: tx, y1: TOP + PLOT_H, x2: tx, y2: TOP + PLOT_H + 4, stroke: '#6b7280' });
    items.push({ t: 'text', x: tx, y: TOP + PLOT_H + 16, text: `${Math.round(s * 10) / 10}`, align: 'center', font: FONT_SMALL });
  }
  items.push({ t: 'text', x: LEFT + plotW / 2, y: TOP + PLOT_H + 34, text: 'virtual time (s) · shaded: maintenance; dark: its lock', align: 'center', font: FONT });
  // The line: each complete bin at its middle (the last one is still filling).
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < n - 1; i++) pts.push([x(t0 + (i + 0.5) * tl.bin_ns), y(tl.qps[i]!)]);
  if (pts.length > 1) items.push({ t: 'path', points: pts, stroke: '#0072B2', lw: 1.5 });
  return { width, height: TOP + PLOT_H + AXIS_H, items };
}

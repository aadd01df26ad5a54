/**
 * The store's rates over the last minute of virtual time, from the session's `timeline` view
 * (one sample per 50 ms): write IOPS above, read IOPS below, as the thesis reports them (operations
 * per second of foreground time spent in them, Figs 3.15–3.20), each on its own axis over one
 * time axis, with the recent flips as dashed lines across both (the read drops follow them).
 * Pure: timelineScene() computes a Scene from the columns.
 */
import { fmt, fmtTicks } from '../../viz/format';
import { FONT_BOLD, FONT_SMALL, type Scene, type SceneItem } from '../../viz/canvasScene';
import { niceMax, timeX, valueY, type TimeFrame } from '../../viz/timeChart';
import { CONA } from './conaPalette';
import type { ConaEvent } from './conaTypes';

/** The `timeline` view's columns this chart reads (F64 arrays, oldest sample first). */
export interface ConaTimeline {
  t_ns: ArrayLike<number>;
  write_iops: ArrayLike<number>;
  read_iops: ArrayLike<number>;
}

export const WRITE_COLOUR = '#0072B2';
export const READ_COLOUR = '#D55E00';

const LEFT = 52;
const RIGHT = 12;
const PLOT_H = 78;
const GAP = 40;

/** The columns of a `timeline` view, or null when it lacks one. */
export function readTimeline(cols: Record<string, unknown> | undefined): ConaTimeline | null {
  if (!cols) return null;
  const t = cols.t_ns as ArrayLike<number> | undefined;
  const w = cols.write_iops as ArrayLike<number> | undefined;
  const r = cols.read_iops as ArrayLike<number> | undefined;
  if (!t || !w || !r || typeof t.length !== 'number') return null;
  return { t_ns: t, write_iops: w, read_iops: r };
}

function plot(items: SceneItem[], f: TimeFrame, t: ArrayLike<number>, v: ArrayLike<number>, colour: string, title: string, empty: string): void {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, v[i]!);
  const ymax = niceMax(max);
  const bottom = f.top + f.plotH;
  items.push({ t: 'text', x: 4, y: f.top - 8, text: title, font: FONT_BOLD, fill: colour });
  items.push({ t: 'line', x1: f.left, y1: bottom, x2: f.left + f.plotW, y2: bottom, stroke: CONA.axis });
  items.push({ t: 'line', x1: f.left, y1: f.top, x2: f.left, y2: bottom, stroke: CONA.axis });
  const ticks = [0, ymax / 2, ymax];
  const labels = fmtTicks(ticks);
  ticks.forEach((tv, i) => {
    const y = valueY(f, tv, ymax);
    items.push({ t: 'line', x1: f.left - 4, y1: y, x2: f.left, y2: y, stroke: CONA.axis });
    items.push({ t: 'text', x: f.left - 6, y: y + 4, text: labels[i]!, font: FONT_SMALL, align: 'right' });
  });
  if (max <= 0) {
    items.push({ t: 'text', x: f.left + f.plotW / 2, y: f.top + f.plotH / 2 + 4, text: empty, font: FONT_SMALL, align: 'center', fill: CONA.axis });
    return;
  }
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < t.length; i++) pts.push([timeX(f, t[i]!), valueY(f, v[i] ?? 0, ymax)]);
  if (pts.length > 1) items.push({ t: 'path', points: pts, stroke: colour, lw: 1.5 });
  else items.push({ t: 'dots', xy: pts.flat(), r: 2.5, fill: colour });
}

/** The chart at `width`; `nowNs` is the snapshot's time, `events` its recent events (their flips are marked). */
export function timelineScene(tl: ConaTimeline | null, nowNs: number, events: readonly ConaEvent[], width: number): Scene {
  const items: SceneItem[] = [];
  const plotW = Math.max(100, width - LEFT - RIGHT);
  const n = tl?.t_ns.length ?? 0;
  const first = n > 0 ? tl!.t_ns[0]! : 0;
  const span = Math.max(1e9, nowNs - first);
  const top1 = 24;
  const top2 = top1 + PLOT_H + GAP;
  const f1: TimeFrame = { left: LEFT, top: top1, plotW, plotH: PLOT_H, t0: first, span };
  const f2: TimeFrame = { ...f1, top: top2 };
  const t = tl?.t_ns ?? [];
  const narrow = width < 420;
  plot(items, f1, t, tl?.write_iops ?? [], WRITE_COLOUR, narrow ? 'write IOPS' : 'write IOPS (puts per second of time spent putting)', 'no writes yet');
  plot(items, f2, t, tl?.read_iops ?? [], READ_COLOUR, narrow ? 'read IOPS' : 'read IOPS (gets per second of time spent getting)', narrow ? 'no reads (inserts only)' : 'no reads: the load is inserts only');
  // Flips in the window, dashed across both plots.
  let labelEnd = -Infinity;
  for (const e of events) {
    if (e.kind !== 'flip' || e.t_ns < first || e.t_ns > first + span) continue;
    const x = timeX(f1, e.t_ns);
    items.push({ t: 'line', x1: x, y1: top1, x2: x, y2: top2 + PLOT_H, stroke: CONA.flip, lw: 1.5, dash: [4, 3] });
    // A label where it does not run into the previous one (flips come in cascades).
    if (x + 2 < labelEnd) continue;
    items.push({ t: 'text', x: x + 2, y: top1 + PLOT_H + 13, text: `flip L${e.level}`, font: FONT_SMALL, fill: CONA.flip });
    labelEnd = x + 2 + 6 * `flip L${e.level}`.length;
  }
  // The time axis under the second plot: seconds of virtual time.
  const bottom = top2 + PLOT_H;
  const stepS = span >= 20e9 ? 5 : span >= 8e9 ? 2 : span >= 3e9 ? 1 : span >= 1.2e9 ? 0.5 : 0.2;
  for (let s = Math.ceil(first / 1e9 / stepS) * stepS; s * 1e9 <= first + span + 1; s += stepS) {
    const x = timeX(f2, s * 1e9);
    items.push({ t: 'line', x1: x, y1: bottom, x2: x, y2: bottom + 4, stroke: CONA.axis });
    items.push({ t: 'text', x, y: bottom + 16, text: fmt(Math.round(s * 10) / 10), font: FONT_SMALL, align: 'center' });
  }
  items.push({ t: 'text', x: LEFT + plotW / 2, y: bottom + 32, text: narrow ? 'virtual time (s) · dashed: a flip' : 'virtual time (s), one sample per 50 ms · dashed: a flip', font: FONT_SMALL, align: 'center' });
  return { width, height: bottom + 40, items };
}

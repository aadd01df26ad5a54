/**
 * Where the cores' time goes: two bars stacked by cost kind — the cores busy with each kind
 * (axis 0 … the host's cores) and the core-µs each kind costs per lookup answered (the bar a
 * student watches shrink as G and R grow: per-RPC and per-I/O costs spread over more keys) —
 * then each core's busy share. A legend names every kind; segments wide enough carry their
 * value. Pure: costScene() computes a Scene from the snapshot.
 */
import { fmt, fmtTicks } from '../../../viz/format';
import { FONT_BOLD, FONT_SMALL, type Scene, type SceneItem } from '../../../viz/canvasScene';
import { niceMax } from '../../../viz/timeChart';
import { costStyle } from './netPalette';
import type { NetSnapshot } from './netTypes';

const AXIS = '#6b7280';
const BAR_H = 24;

/** One stacked segment: its kind, value and where it starts along the bar. */
export interface Segment {
  kind: string;
  value: number;
  start: number;
}

/** Stacks `values` (one per kind) in order, leaving out zeros. */
export function stack(kinds: readonly string[], values: readonly number[]): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  kinds.forEach((kind, i) => {
    const v = values[i] ?? 0;
    if (!(v > 0)) return;
    out.push({ kind, value: v, start: at });
    at += v;
  });
  return out;
}

/** The legend: a swatch and a name per kind, wrapped to `width`; returns the height used. */
function legend(items: SceneItem[], kinds: readonly string[], y0: number, width: number): number {
  let x = 4;
  let y = y0;
  for (const k of kinds) {
    const s = costStyle(k);
    const w = 16 + s.label.length * 6.3 + 14;
    if (x + w > width && x > 4) {
      x = 4;
      y += 17;
    }
    items.push({ t: 'rect', x, y: y - 9, w: 11, h: 11, fill: s.colour, stroke: '#1f2328', lw: 0.5, tag: k });
    items.push({ t: 'text', x: x + 15, y, text: s.label, font: FONT_SMALL });
    x += w;
  }
  return y - y0 + 17;
}

/** A stacked bar over [0, max] with its axis, title and the total at the right. */
function bar(items: SceneItem[], segs: Segment[], y: number, left: number, plotW: number, max: number, title: string, ticks: number[], total: string): number {
  items.push({ t: 'text', x: 4, y, text: `${title}: ${total}`, font: FONT_BOLD });
  const top = y + 8;
  const X = (v: number) => left + (v / max) * plotW;
  items.push({ t: 'rect', x: left, y: top, w: plotW, h: BAR_H, fill: '#f6f8fa', stroke: '#d0d7de' });
  for (const s of segs) {
    const st = costStyle(s.kind);
    const x0 = X(s.start);
    const w = Math.max(0, X(Math.min(max, s.start + s.value)) - x0);
    if (w <= 0) continue;
    items.push({ t: 'rect', x: x0, y: top, w, h: BAR_H, fill: st.colour, stroke: '#ffffff', lw: 1, tag: s.kind });
    const text = fmt(s.value, 2);
    if (w >= text.length * 6.5 + 6) items.push({ t: 'text', x: x0 + w / 2, y: top + BAR_H / 2 + 4, text, font: FONT_SMALL, align: 'center', fill: st.ink });
  }
  const bottom = top + BAR_H;
  const labels = fmtTicks(ticks);
  ticks.forEach((v, i) => {
    items.push({ t: 'line', x1: X(v), y1: bottom, x2: X(v), y2: bottom + 4, stroke: AXIS });
    items.push({ t: 'text', x: X(v), y: bottom + 15, text: labels[i]!, font: FONT_SMALL, align: 'center' });
  });
  return bottom + 22 - y;
}

function ticksTo(max: number, n: number): number[] {
  const step = max / n;
  return Array.from({ length: n + 1 }, (_, i) => Math.round(i * step * 1000) / 1000);
}

export function costScene(sn: NetSnapshot, width: number): Scene {
  const items: SceneItem[] = [];
  const kinds = sn.cost.kinds;
  let y = 14;
  y += legend(items, kinds, y, width) + 10;
  const left = 8;
  const plotW = width - left - 14;
  const cores = Math.max(1, sn.config.cores);
  y += bar(items, stack(kinds, sn.cost.cores), y, left, plotW, cores, 'Cores busy by cost kind', ticksTo(cores, cores <= 8 ? cores : 8),
    `${fmt(sn.cost.cores_busy, 3)} of ${cores} cores`) + 8;
  const perKey = sn.cost.us_per_key.reduce((a, b) => a + b, 0);
  const max = niceMax(Math.max(10, perKey));
  y += bar(items, stack(kinds, sn.cost.us_per_key), y, left, plotW, max, 'Core-µs per lookup by kind', ticksTo(max, 5),
    `${fmt(perKey, 3)} in all`) + 8;
  // Each core's busy share.
  const n = sn.core_busy.length;
  items.push({ t: 'text', x: 4, y, text: `Each core's busy share${n > 0 ? ` (busiest ${Math.round(Math.max(...sn.core_busy) * 100)}%)` : ''}`, font: FONT_BOLD });
  const cw = Math.min(40, (plotW - 4) / Math.max(1, n));
  const top = y + 8;
  const h = 40;
  sn.core_busy.forEach((f, i) => {
    const x = left + i * cw;
    items.push({ t: 'rect', x, y: top, w: cw - 3, h, fill: '#f6f8fa', stroke: '#d0d7de' });
    const fh = h * Math.min(1, Math.max(0, f));
    items.push({ t: 'rect', x, y: top + h - fh, w: cw - 3, h: fh, fill: '#0072B2', tag: `core${i}` });
    if (cw >= 18 || i % 2 === 0) items.push({ t: 'text', x: x + (cw - 3) / 2, y: top + h + 12, text: String(i), font: FONT_SMALL, align: 'center' });
  });
  return { width, height: top + h + 18, items };
}

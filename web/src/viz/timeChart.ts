/**
 * What the live views' small time charts share: a plot frame over virtual time, round value
 * axes, and time ticks in seconds. The labs' chart modules (labs/<id>/*Timeline.ts) add their
 * marks; everything here pushes SceneItems.
 */
import { FONT, FONT_SMALL, type SceneItem } from './canvasScene';

const AXIS = '#6b7280';

/** A round upper bound for a value axis: 1, 2 or 5 × 10^n, at least 10. */
export function niceMax(v: number): number {
  const m = Math.max(10, v);
  const p = 10 ** Math.floor(Math.log10(m));
  const r = m / p;
  return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * p;
}

/** A plot area in CSS pixels over the virtual times [t0, t0 + span] (ns). */
export interface TimeFrame {
  left: number;
  top: number;
  plotW: number;
  plotH: number;
  t0: number;
  span: number;
}

export function timeX(f: TimeFrame, t: number): number {
  return f.left + ((t - f.t0) / f.span) * f.plotW;
}

/** y of value v on an axis from 0 to max. */
export function valueY(f: TimeFrame, v: number, max: number): number {
  return f.top + f.plotH - (v / max) * f.plotH;
}

/** Ticks and labels at 0, max/2 and max on the left or right edge of the plot. */
export function valueTicks(items: SceneItem[], f: TimeFrame, max: number, side: 'left' | 'right' = 'left'): void {
  const x = side === 'left' ? f.left : f.left + f.plotW;
  const d = side === 'left' ? -1 : 1;
  for (const v of [0, max / 2, max]) {
    items.push({ t: 'line', x1: x + 4 * d, y1: valueY(f, v, max), x2: x, y2: valueY(f, v, max), stroke: AXIS });
    items.push({ t: 'text', x: x + 6 * d, y: valueY(f, v, max) + 4, text: v.toLocaleString('en-US'), align: side === 'left' ? 'right' : 'left', font: FONT_SMALL });
  }
}

/** The frame: both axes, the left value ticks, a title over the plot (none when empty), time ticks in seconds and the time axis's title. */
export function timeFrame(items: SceneItem[], f: TimeFrame, max: number, title: string, xTitle: string): void {
  const bottom = f.top + f.plotH;
  items.push({ t: 'line', x1: f.left, y1: bottom, x2: f.left + f.plotW, y2: bottom, stroke: AXIS });
  items.push({ t: 'line', x1: f.left, y1: f.top, x2: f.left, y2: bottom, stroke: AXIS });
  valueTicks(items, f, max);
  if (title) items.push({ t: 'text', x: 0, y: 12, text: title, font: FONT_SMALL });
  const stepS = f.span >= 10e9 ? 2 : f.span >= 4e9 ? 1 : 0.5;
  for (let s = Math.ceil(f.t0 / 1e9 / stepS) * stepS; s * 1e9 <= f.t0 + f.span; s += stepS) {
    const tx = timeX(f, s * 1e9);
    items.push({ t: 'line', x1: tx, y1: bottom, x2: tx, y2: bottom + 4, stroke: AXIS });
    items.push({ t: 'text', x: tx, y: bottom + 16, text: `${Math.round(s * 10) / 10}`, align: 'center', font: FONT_SMALL });
  }
  items.push({ t: 'text', x: f.left + f.plotW / 2, y: bottom + 34, text: xTitle, align: 'center', font: FONT });
}

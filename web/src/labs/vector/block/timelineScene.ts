/**
 * The block layer's timeline over the last window: one strip per CPU with its interrupts as
 * ticks (the number above a tick is how many completions that interrupt handled; with
 * deferral a 0 is the hard IRQ that only arms the timer), then one row
 * per I/O (the newest at the bottom): Q→G, G→I and I→D, the issue path, in colour, the device's
 * time (D until C) in grey and the completion C as a black mark. A phase not finished yet runs
 * to "now" at the right edge. Pure: timelineScene() computes a Scene from the columns.
 */
import { FONT_SMALL, type Scene, type SceneItem } from '../../../viz/canvasScene';
import { AXIS, COMPLETE_COLOUR, DEVICE_COLOUR, IRQ_COLOUR, PHASES } from './blockPalette';
import type { BlockTimeline } from './blockTypes';

const ROW = 7;
const ROW_GAP = 2;
const STRIP = 20;

/** The rows drawn at most (the newest I/Os): fewer on a phone. */
export function maxRows(width: number): number {
  return width < 480 ? 28 : 40;
}

/** Indices of the I/Os to draw, oldest issue first, at most `max` (the newest). */
export function rowOrder(tl: BlockTimeline, max: number): number[] {
  const idx = Array.from(tl.io, (_, k) => k);
  idx.sort((a, b) => tl.q[a]! - tl.q[b]! || tl.io[a]! - tl.io[b]!);
  return idx.slice(Math.max(0, idx.length - max));
}

export function timelineScene(tl: BlockTimeline, windowUs: number, cpus: number, width: number): Scene {
  const items: SceneItem[] = [];
  const left = width < 480 ? 44 : 64;
  const plotW = Math.max(100, width - left - 12);
  const t0 = tl.t_end_ns - windowUs * 1000;
  const x = (ns: number) => left + (Math.min(tl.t_end_ns, Math.max(t0, ns)) - t0) / (windowUs * 1000) * plotW;
  const inWindow = (ns: number) => ns >= t0 && ns <= tl.t_end_ns;

  // Interrupt strips, one per CPU.
  let y = 16;
  items.push({ t: 'text', x: 0, y: 10, text: width < 480 ? 'interrupts (number: completions handled)' : 'interrupts (the number: completions each handled; 0: it only armed the defer timer)', font: FONT_SMALL });
  const ncpu = Math.max(cpus, 1, ...Array.from(tl.irq_cpu, (c) => c + 1));
  for (let c = 0; c < ncpu; c++) {
    const top = y + c * STRIP;
    items.push({ t: 'text', x: 0, y: top + STRIP - 4, text: `cpu ${c}`, font: FONT_SMALL });
    items.push({ t: 'line', x1: left, y1: top + STRIP - 2, x2: left + plotW, y2: top + STRIP - 2, stroke: '#e5e7eb' });
    let lastLabel = -Infinity;
    for (let k = 0; k < tl.irq_t.length; k++) {
      if (tl.irq_cpu[k] !== c || !inWindow(tl.irq_t[k]!)) continue;
      const xi = x(tl.irq_t[k]!);
      items.push({ t: 'line', x1: xi, y1: top + 9, x2: xi, y2: top + STRIP - 2, stroke: IRQ_COLOUR, lw: 2 });
      if (xi - lastLabel >= 14) {
        items.push({ t: 'text', x: xi, y: top + 8, text: String(tl.irq_n[k]), font: FONT_SMALL, fill: '#8a3a00', align: 'center' });
        lastLabel = xi;
      }
    }
  }
  y += ncpu * STRIP + 6;

  // One row per I/O.
  const rows = rowOrder(tl, maxRows(width));
  items.push({ t: 'text', x: 0, y: y + 10, text: width < 480 ? `I/Os, newest lowest (${rows.length} of ${tl.io.length})` : `I/Os, one row each (the newest ${rows.length} of ${tl.io.length}, newest at the bottom)`, font: FONT_SMALL });
  y += 16;
  const top = y;
  rows.forEach((k, r) => {
    const ry = top + r * (ROW + ROW_GAP);
    const times = [tl.q[k]!, tl.g[k]!, tl.i[k]!, tl.d[k]!];
    for (let p = 0; p < 3; p++) {
      const a = times[p]!;
      if (a < 0) break;
      const b = times[p + 1]! >= 0 ? times[p + 1]! : tl.t_end_ns;
      const x1 = x(a);
      const x2 = x(b);
      if (x2 > x1) items.push({ t: 'rect', x: x1, y: ry, w: Math.max(1, x2 - x1), h: ROW, fill: PHASES[p]!.colour, tag: PHASES[p]!.key });
    }
    const d = tl.d[k]!;
    if (d >= 0) {
      const c = tl.c[k]!;
      const x1 = x(d);
      const x2 = x(c >= 0 ? c : tl.t_end_ns);
      if (x2 > x1) items.push({ t: 'rect', x: x1, y: ry + 1, w: x2 - x1, h: ROW - 2, fill: DEVICE_COLOUR, tag: 'device' });
      if (c >= 0 && inWindow(c)) items.push({ t: 'rect', x: x(c) - 1, y: ry - 1, w: 2, h: ROW + 2, fill: COMPLETE_COLOUR, tag: 'C' });
    }
  });
  if (rows.length === 0) items.push({ t: 'text', x: left, y: top + 12, text: 'no I/O in this window yet', font: FONT_SMALL, fill: AXIS });
  const bottom = top + Math.max(1, rows.length) * (ROW + ROW_GAP) + 18;

  // The time axis: µs before now.
  const axisY = bottom - 4;
  items.push({ t: 'line', x1: left, y1: axisY, x2: left + plotW, y2: axisY, stroke: AXIS });
  const ticks = width < 480 ? 4 : 5;
  for (let j = 0; j <= ticks; j++) {
    const us = -windowUs + (windowUs * j) / ticks;
    const xt = left + (plotW * j) / ticks;
    items.push({ t: 'line', x1: xt, y1: axisY, x2: xt, y2: axisY + 4, stroke: AXIS });
    items.push({ t: 'text', x: xt, y: axisY + 15, text: j === ticks ? 'now' : String(Math.round(us)), font: FONT_SMALL, fill: '#374151',
      align: j === 0 ? 'left' : j === ticks ? 'right' : 'center' });
  }
  items.push({ t: 'text', x: left + plotW / 2, y: axisY + 30, text: 'time (µs before now)', font: FONT_SMALL, align: 'center' });
  return { width, height: axisY + 36, items };
}

/**
 * The inter-completion histogram (thesis Figs 6.5/6.6): how many consecutive completions were
 * how far apart (µs) over the recent window, one bar per bin, with labelled axes. One interrupt
 * per completion shows the device's service modes; deferral clusters completions into a spike
 * of short gaps. Pure: gapScene() computes a Scene from the snapshot's histogram.
 */
import { fmt } from '../../../viz/format';
import { FONT_SMALL, type Scene, type SceneItem } from '../../../viz/canvasScene';
import { AXIS, GAP_COLOUR } from './blockPalette';
import type { BlockSnapshot } from './blockTypes';

/** The bins drawn: through the last non-empty one (at least one). */
export function binsShown(counts: number[]): number {
  let n = counts.length;
  while (n > 1 && counts[n - 1] === 0) n--;
  return n;
}

export function gapScene(hist: BlockSnapshot['gap_hist'], width: number): Scene {
  const items: SceneItem[] = [];
  const left = 44;
  const top = 20;
  const plotW = Math.max(100, width - left - 14);
  const plotH = width < 480 ? 120 : 150;
  const n = binsShown(hist.counts);
  const max = Math.max(1, ...hist.counts.slice(0, n));
  const bw = plotW / n;
  const bottom = top + plotH;
  items.push({ t: 'text', x: 0, y: 10, text: 'completions', font: FONT_SMALL });
  for (let b = 0; b < n; b++) {
    const h = (hist.counts[b]! / max) * plotH;
    if (h > 0) items.push({ t: 'rect', x: left + b * bw + (bw > 4 ? 1 : 0), y: bottom - h, w: Math.max(1, bw - (bw > 4 ? 2 : 0)), h, fill: GAP_COLOUR, tag: `bin ${b}` });
  }
  items.push({ t: 'line', x1: left, y1: bottom, x2: left + plotW, y2: bottom, stroke: AXIS });
  items.push({ t: 'line', x1: left, y1: top, x2: left, y2: bottom, stroke: AXIS });
  for (const v of [0, max]) {
    const yy = bottom - (v / max) * plotH;
    items.push({ t: 'line', x1: left - 4, y1: yy, x2: left, y2: yy, stroke: AXIS });
    items.push({ t: 'text', x: left - 6, y: yy + 4, text: fmt(v), font: FONT_SMALL, align: 'right', fill: '#374151' });
  }
  // x ticks at bin edges, about every 60 px.
  const every = Math.max(1, Math.ceil(60 / bw));
  for (let b = 0; b <= n; b += every) {
    const xt = left + b * bw;
    items.push({ t: 'line', x1: xt, y1: bottom, x2: xt, y2: bottom + 4, stroke: AXIS });
    items.push({ t: 'text', x: xt, y: bottom + 15, text: fmt(b * hist.bin_us), font: FONT_SMALL, align: 'center', fill: '#374151' });
  }
  items.push({ t: 'text', x: left + plotW / 2, y: bottom + 30, text: `gap between consecutive completions (µs; bins of ${fmt(hist.bin_us)} µs)`, font: FONT_SMALL, align: 'center' });
  return { width, height: bottom + 36, items };
}

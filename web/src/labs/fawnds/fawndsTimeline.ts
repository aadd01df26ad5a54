/**
 * Queries per second over the last seconds of virtual time, with the maintenance operations
 * shaded and their end locks darker (FAWN Fig 14's picture, live). Pure: timelineScene()
 * computes a Scene from the snapshot's timeline.
 */
import type { FawndsSnapshot } from './fawndsTypes';
import { FONT_SMALL, type Scene, type SceneItem } from '../../viz/canvasScene';
import { niceMax, timeFrame, timeX, valueY, type TimeFrame } from '../../viz/timeChart';

export { niceMax };

const LEFT = 56;
const RIGHT = 12;
const TOP = 22;
const PLOT_H = 96;
const AXIS_H = 40;

export function timelineScene(tl: FawndsSnapshot['timeline'], nowNs: number, width: number): Scene {
  const items: SceneItem[] = [];
  const plotW = Math.max(100, width - LEFT - RIGHT);
  const n = tl.qps.length;
  const t0 = tl.first_ns;
  const t1 = Math.max(t0 + tl.bin_ns, nowNs);
  const f: TimeFrame = { left: LEFT, top: TOP, plotW, plotH: PLOT_H, t0, span: Math.max(tl.bin_ns * 120, t1 - t0) };
  const x = (t: number) => timeX(f, t);
  const ymax = niceMax(Math.max(0, ...tl.qps));
  const y = (q: number) => valueY(f, q, ymax);
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
  // A phone's narrow chart says it in fewer words.
  const xTitle = width < 420 ? 'virtual time (s) · shaded: maintenance' : 'virtual time (s) · shaded: maintenance; dark: its lock';
  timeFrame(items, f, ymax, 'queries per second (completed, per 50 ms bin)', xTitle);
  // The line: each complete bin at its middle (the last one is still filling).
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < n - 1; i++) pts.push([x(t0 + (i + 0.5) * tl.bin_ns), y(tl.qps[i]!)]);
  if (pts.length > 1) items.push({ t: 'path', points: pts, stroke: '#0072B2', lw: 1.5 });
  return { width, height: TOP + PLOT_H + AXIS_H, items };
}

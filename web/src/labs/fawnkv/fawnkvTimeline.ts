/**
 * The FAWN-KV cluster over the last seconds of virtual time: queries per second (left axis,
 * solid) and the cluster's power in watts (right axis, dashed), per 100 ms bucket — what a
 * join, a failure or a hot key does to throughput and to queries per joule. Pure:
 * kvTimelineScene() computes a Scene from the snapshot's timeline.
 */
import type { FawnkvSnapshot } from './fawnkvTypes';
import { FONT_SMALL, type Scene, type SceneItem } from '../../viz/canvasScene';
import { niceMax, timeFrame, timeX, valueTicks, valueY, type TimeFrame } from '../../viz/timeChart';

const LEFT = 56;
const RIGHT = 48;
const TOP = 22;
const PLOT_H = 110;
const AXIS_H = 40;
const BUCKET_NS = 100e6;
export const QPS_COLOUR = '#0072B2';
export const WATTS_COLOUR = '#D55E00';

export function kvTimelineScene(tl: FawnkvSnapshot['timeline'], nowNs: number, width: number): Scene {
  const items: SceneItem[] = [];
  const plotW = Math.max(100, width - LEFT - RIGHT);
  const t0 = tl[0]?.t_ns ?? 0;
  const f: TimeFrame = { left: LEFT, top: TOP, plotW, plotH: PLOT_H, t0, span: Math.max(5e9, nowNs - t0) };
  const qmax = niceMax(Math.max(0, ...tl.map((b) => b.qps)));
  const wmax = niceMax(Math.max(0, ...tl.map((b) => b.watts)));
  timeFrame(items, f, qmax, '', 'virtual time (s), 100 ms buckets');
  items.push({ t: 'line', x1: LEFT + plotW, y1: TOP, x2: LEFT + plotW, y2: TOP + PLOT_H, stroke: '#6b7280' });
  valueTicks(items, f, wmax, 'right');
  // Legend as axis titles: what each side measures, in its line's style.
  // (A phone's narrow chart says it in fewer words.)
  const narrow = width < 420;
  const x2 = narrow ? 150 : 220;
  items.push({ t: 'line', x1: 0, y1: 8, x2: 18, y2: 8, stroke: QPS_COLOUR, lw: 2 });
  items.push({ t: 'text', x: 22, y: 12, text: narrow ? 'queries/s (left axis)' : 'queries per second (left axis)', font: FONT_SMALL });
  items.push({ t: 'line', x1: x2, y1: 8, x2: x2 + 18, y2: 8, stroke: WATTS_COLOUR, lw: 2, dash: [5, 3] });
  items.push({ t: 'text', x: x2 + 22, y: 12, text: narrow ? 'power, W (right axis)' : 'cluster power, W (right axis)', font: FONT_SMALL });
  // The lines: each complete bucket at its middle (the newest is still filling).
  const done = tl.slice(0, -1);
  const at = (b: { t_ns: number }) => timeX(f, b.t_ns + BUCKET_NS / 2);
  if (done.length > 1) {
    items.push({ t: 'path', points: done.map((b) => [at(b), valueY(f, b.qps, qmax)]), stroke: QPS_COLOUR, lw: 1.5 });
    items.push({ t: 'path', points: done.map((b) => [at(b), valueY(f, b.watts, wmax)]), stroke: WATTS_COLOUR, lw: 1.5, dash: [5, 3] });
  }
  return { width, height: TOP + PLOT_H + AXIS_H, items };
}

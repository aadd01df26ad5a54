/**
 * The operating point on the latency–throughput plane: lookups answered per second (log
 * axis) against the median end-to-end latency (log axis), the last operating points as a trail
 * that fades with age, the point now as a filled dot with its 99th percentile as a ring above
 * it, a tick for the offered load on the throughput axis, and the papers' reporting rule (the
 * highest load with p50 < 1 ms and p99 < 10 ms) as dashed lines. Pure: planeScene() computes a
 * Scene from the snapshot.
 */
import { fmt, fmtTicks } from '../../../viz/format';
import { FONT, FONT_SMALL, type Scene, type SceneItem } from '../../../viz/canvasScene';
import type { NetSnapshot } from './netTypes';

const AXIS = '#6b7280';
export const X_RANGE: [number, number] = [1e4, 4e6];
export const Y_RANGE: [number, number] = [50, 50_000];
const X_TICKS = [1e4, 3e4, 1e5, 3e5, 1e6, 3e6];
const Y_TICKS = [50, 100, 300, 1000, 3000, 10_000, 30_000];

export interface PlaneFrame {
  left: number;
  top: number;
  plotW: number;
  plotH: number;
}

/** x of a throughput, clamped to the axis. */
export function xOf(f: PlaneFrame, v: number): number {
  const c = Math.min(X_RANGE[1], Math.max(X_RANGE[0], v));
  return f.left + (Math.log10(c / X_RANGE[0]) / Math.log10(X_RANGE[1] / X_RANGE[0])) * f.plotW;
}

/** y of a latency, clamped to the axis. */
export function yOf(f: PlaneFrame, us: number): number {
  const c = Math.min(Y_RANGE[1], Math.max(Y_RANGE[0], us));
  return f.top + f.plotH - (Math.log10(c / Y_RANGE[0]) / Math.log10(Y_RANGE[1] / Y_RANGE[0])) * f.plotH;
}

export function planeScene(sn: NetSnapshot, width: number): Scene {
  const items: SceneItem[] = [];
  const narrow = width < 480;
  const f: PlaneFrame = { left: 52, top: 34, plotW: Math.max(120, width - 52 - 14), plotH: narrow ? 170 : 200 };
  const bottom = f.top + f.plotH;
  items.push({ t: 'text', x: 0, y: 12, text: 'median latency (µs, log) · ring: p99', font: FONT_SMALL });
  // The reporting rule.
  items.push({ t: 'rect', x: f.left, y: yOf(f, 1000), w: f.plotW, h: bottom - yOf(f, 1000), fill: 'rgba(0,158,115,0.07)', tag: 'p50 < 1 ms' });
  items.push({ t: 'line', x1: f.left, y1: yOf(f, 1000), x2: f.left + f.plotW, y2: yOf(f, 1000), stroke: '#009E73', dash: [5, 3] });
  items.push({ t: 'text', x: f.left + 4, y: yOf(f, 1000) - 4, text: narrow ? 'p50 1 ms' : 'p50 = 1 ms (reporting rule)', font: FONT_SMALL, fill: '#006b4f' });
  items.push({ t: 'line', x1: f.left, y1: yOf(f, 10000), x2: f.left + f.plotW, y2: yOf(f, 10000), stroke: '#CC79A7', dash: [2, 3] });
  items.push({ t: 'text', x: f.left + 4, y: yOf(f, 10000) - 4, text: narrow ? 'p99 10 ms' : 'p99 = 10 ms (reporting rule)', font: FONT_SMALL, fill: '#8a3d6b' });
  // Axes.
  items.push({ t: 'line', x1: f.left, y1: bottom, x2: f.left + f.plotW, y2: bottom, stroke: AXIS });
  items.push({ t: 'line', x1: f.left, y1: f.top, x2: f.left, y2: bottom, stroke: AXIS });
  const xl = fmtTicks(X_TICKS);
  X_TICKS.forEach((v, i) => {
    if (narrow && i % 2 === 1) return;
    items.push({ t: 'line', x1: xOf(f, v), y1: bottom, x2: xOf(f, v), y2: bottom + 4, stroke: AXIS });
    items.push({ t: 'text', x: xOf(f, v), y: bottom + 16, text: xl[i]!, font: FONT_SMALL, align: 'center' });
  });
  const yl = fmtTicks(Y_TICKS);
  Y_TICKS.forEach((v, i) => {
    items.push({ t: 'line', x1: f.left - 4, y1: yOf(f, v), x2: f.left, y2: yOf(f, v), stroke: AXIS });
    items.push({ t: 'text', x: f.left - 6, y: yOf(f, v) + 4, text: yl[i]!, font: FONT_SMALL, align: 'right' });
  });
  items.push({ t: 'text', x: f.left + f.plotW / 2, y: bottom + 34, text: 'throughput (lookups answered per second, log)', font: FONT, align: 'center' });

  // The offered load, on the throughput axis.
  const off = sn.rates.offered_per_s > 0 ? sn.rates.offered_per_s : sn.config.load_per_s;
  const ox = xOf(f, off);
  items.push({ t: 'path', points: [[ox - 5, bottom + 9], [ox, bottom + 1], [ox + 5, bottom + 9], [ox - 5, bottom + 9]], stroke: '#D55E00', lw: 1.5 });
  items.push({ t: 'text', x: ox, y: f.top - 4, text: `offered ${fmt(off)}/s`, font: FONT_SMALL, align: ox > f.left + f.plotW - 60 ? 'right' : 'center', fill: '#a34500' });
  items.push({ t: 'line', x1: ox, y1: f.top, x2: ox, y2: bottom, stroke: '#D55E00', dash: [1, 4] });

  // The trail, oldest faintest, then the point now.
  const pts = sn.trail.filter((p) => p[2] > 0 && p[3] > 0);
  const path: Array<[number, number]> = pts.map((p) => [xOf(f, p[2]), yOf(f, p[3])]);
  if (path.length > 1) items.push({ t: 'path', points: path, stroke: 'rgba(0,114,178,0.35)', lw: 1.2 });
  pts.forEach((p, i) => {
    const a = 0.15 + (0.55 * (i + 1)) / pts.length;
    items.push({ t: 'circle', cx: xOf(f, p[2]), cy: yOf(f, p[3]), r: 2.5, fill: `rgba(0,114,178,${a.toFixed(2)})`, tag: 'trail' });
  });
  const thr = sn.rates.throughput_per_s;
  if (thr > 0 && sn.latency_us.rpcs > 0) {
    const x = xOf(f, thr);
    items.push({ t: 'line', x1: x, y1: yOf(f, sn.latency_us.p50), x2: x, y2: yOf(f, sn.latency_us.p99), stroke: '#0072B2' });
    items.push({ t: 'circle', cx: x, cy: yOf(f, sn.latency_us.p99), r: 4.5, stroke: '#0072B2', lw: 1.5, fill: '#ffffff', tag: 'p99' });
    items.push({ t: 'circle', cx: x, cy: yOf(f, sn.latency_us.p50), r: 6, fill: '#0072B2', stroke: '#ffffff', lw: 1.5, tag: 'now' });
    const label = `${fmt(thr)}/s · p50 ${fmt(sn.latency_us.p50)} µs`;
    const right = x + 10 + label.length * 6 > f.left + f.plotW;
    items.push({ t: 'text', x: right ? x - 10 : x + 10, y: yOf(f, sn.latency_us.p50) + 4, text: label, font: FONT_SMALL, align: right ? 'right' : 'left', fill: '#003d61' });
  }
  return { width, height: bottom + 42, items };
}

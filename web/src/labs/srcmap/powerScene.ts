/**
 * The power chart over the day, from the session's "power" view (a row per elapsed minute): x the
 * hour of the day 0-24, y watts; the watts as a step line (each minute's average held over the
 * minute), the all-on and standby references, Eq. 3.1's ideal at each minute's load, the load on
 * a second axis (IOPS, right), the spin-ups as marks under the plot (shape and colour by cause:
 * planned, read miss, other I/O), and now as a cursor. Pure:
 * powerScene() computes the marks in CSS px for a width; PowerChart.tsx draws them as SVG.
 */
import { fmt, fmtTicks } from '../../viz/format';
import { niceMax } from '../../viz/timeChart';
import { clockText } from './srcmapReadout';
import { spinUpStyle, type SpinUpStyle } from './srcmapPalette';
import type { PowerSeries } from './srcmapTypes';

export interface PowerFrame {
  left: number;
  top: number;
  w: number;
  h: number;
}

export interface Tick {
  at: number;
  label: string;
}

export interface PowerScene {
  width: number;
  height: number;
  frame: PowerFrame;
  xTicks: Tick[];
  /** Watts (left axis). */
  yTicks: Tick[];
  /** IOPS (right axis). */
  y2Ticks: Tick[];
  wMax: number;
  loadMax: number;
  watts: string;
  ideal: string;
  load: string;
  allOnY: number | null;
  standbyY: number | null;
  /** Spin-up marks: x, the disk, the cause (0 planned, 1 read miss, 2 other I/O) and its glyph (an SVG path). */
  spinUps: Array<{ x: number; disk: number; h: number; cause: number; d: string }>;
  /** Now (null before the day starts). */
  cursorX: number | null;
  /** The minute the keyboard or pointer picked, its x (null: none). */
  pickX: number | null;
  narrow: boolean;
}

export interface PowerRefs {
  allOn: number | null;
  standby: number | null;
}

const MARGIN = { left: 46, right: 52, top: 14, bottom: 52 };

const r1 = (v: number) => Math.round(v * 10) / 10;

/** x of hour h. */
export function hourX(f: PowerFrame, h: number): number {
  return f.left + (Math.min(24, Math.max(0, h)) / 24) * f.w;
}

/** The hour at x (clamped to the day). */
export function xHour(f: PowerFrame, x: number): number {
  return Math.min(24, Math.max(0, ((x - f.left) / f.w) * 24));
}

const yOf = (f: PowerFrame, v: number, max: number) => f.top + f.h - (Math.max(0, v) / max) * f.h;

export function powerFrame(width: number): { frame: PowerFrame; height: number; narrow: boolean } {
  const w = Math.max(280, Math.floor(width));
  const narrow = w < 480;
  const h = narrow ? 170 : 200;
  const frame = { left: MARGIN.left, top: MARGIN.top, w: w - MARGIN.left - MARGIN.right, h };
  return { frame, height: MARGIN.top + h + MARGIN.bottom, narrow };
}

/** The glyph of a spin-up mark centred at (x, y), `r` px from the centre to a tip (an SVG path). */
export function spinUpGlyph(shape: SpinUpStyle['shape'], x: number, y: number, r = 5): string {
  const p = (a: number, b: number) => `${r1(a)},${r1(b)}`;
  if (shape === 'triangle') return `M${p(x, y - r)}L${p(x + r, y + r)}L${p(x - r, y + r)}Z`;
  if (shape === 'diamond') return `M${p(x, y - r)}L${p(x + r, y)}L${p(x, y + r)}L${p(x - r, y)}Z`;
  return `M${p(x - 1, y - r - 1)}H${r1(x + 1)}V${r1(y + r + 1)}H${r1(x - 1)}Z`;
}

/** The chart for `series` (null: nothing yet), the references, now (hours) and a picked row (-1 none). */
export function powerScene(series: PowerSeries | null, refs: PowerRefs, nowH: number | null, width: number, pick = -1): PowerScene {
  const { frame: f, height, narrow } = powerFrame(width);
  const n = series ? series.t_h.length : 0;
  let wPeak = Math.max(refs.allOn ?? 0, refs.standby ?? 0);
  let lPeak = 0;
  for (let i = 0; i < n; i++) {
    wPeak = Math.max(wPeak, series!.watts[i] ?? 0, series!.ideal_watts[i] ?? 0);
    lPeak = Math.max(lPeak, series!.load_iops[i] ?? 0);
  }
  // Watts to a multiple of 20 above the peak (66.1 W all-on: 80), load to a round number.
  const wMax = Math.max(20, Math.ceil((wPeak * 1.05) / 20) * 20);
  const loadMax = niceMax(lPeak);
  const minute = 1 / 60;
  let watts = '';
  let ideal = '';
  let load = '';
  for (let i = 0; i < n; i++) {
    const t = series!.t_h[i]!;
    const x0 = r1(hourX(f, t));
    const x1 = r1(hourX(f, t + minute));
    const y = r1(yOf(f, series!.watts[i]!, wMax));
    watts += i === 0 ? `M${x0},${y}H${x1}` : `V${y}H${x1}`;
    const xm = r1(hourX(f, t + minute / 2));
    ideal += `${i === 0 ? 'M' : 'L'}${xm},${r1(yOf(f, series!.ideal_watts[i]!, wMax))}`;
    load += `${i === 0 ? 'M' : 'L'}${xm},${r1(yOf(f, series!.load_iops[i]!, loadMax))}`;
  }
  const step = narrow ? 6 : 3;
  const xTicks: Tick[] = [];
  for (let hh = 0; hh <= 24; hh += step) xTicks.push({ at: r1(hourX(f, hh)), label: String(hh).padStart(2, '0') });
  const yVals = [0, wMax / 4, wMax / 2, (3 * wMax) / 4, wMax];
  const yTicks = yVals.map((v, i) => ({ at: r1(yOf(f, v, wMax)), label: fmtTicks(yVals)[i]! }));
  const lVals = [0, loadMax / 2, loadMax];
  const y2Ticks = lVals.map((v, i) => ({ at: r1(yOf(f, v, loadMax)), label: fmtTicks(lVals)[i]! }));
  const spinUps: PowerScene['spinUps'] = [];
  if (series) {
    for (let i = 0; i < series.spin_up_h.length; i++) {
      const h = series.spin_up_h[i]!;
      const x = r1(hourX(f, h));
      const cause = series.spin_up_cause[i] ?? 2;
      spinUps.push({ x, disk: series.spin_up_disk[i] ?? -1, h, cause, d: spinUpGlyph(spinUpStyle(cause).shape, x, f.top + f.h - 7) });
    }
  }
  return {
    width: f.left + f.w + MARGIN.right, height, frame: f, xTicks, yTicks, y2Ticks, wMax, loadMax, watts, ideal, load,
    allOnY: refs.allOn === null ? null : r1(yOf(f, refs.allOn, wMax)),
    standbyY: refs.standby === null ? null : r1(yOf(f, refs.standby, wMax)),
    spinUps,
    cursorX: nowH === null ? null : r1(hourX(f, nowH)),
    pickX: pick >= 0 && pick < n ? r1(hourX(f, series!.t_h[pick]! + minute / 2)) : null,
    narrow,
  };
}

/** The row at hour h (the minute holding it), or -1. */
export function rowAt(series: PowerSeries | null, h: number): number {
  if (!series || series.t_h.length === 0) return -1;
  let lo = 0;
  let hi = series.t_h.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (series.t_h[mid]! <= h) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** One minute of the chart in words. */
export function rowText(series: PowerSeries, i: number): string {
  const t = series.t_h[i]!;
  const ups: string[] = [];
  for (let k = 0; k < series.spin_up_h.length; k++) {
    const h = series.spin_up_h[k]!;
    if (h >= t && h < t + 1 / 60) ups.push(`D${series.spin_up_disk[k]} (${spinUpStyle(series.spin_up_cause[k] ?? 2).word})`);
  }
  return `${clockText(t)}: ${fmt(series.watts[i]!)} W, ${fmt(series.spinning[i]!)} disks spinning, load ${fmt(series.load_iops[i]!)} IOPS, ` +
    `ideal ${fmt(series.ideal_watts[i]!)} W${ups.length ? `; spin-up of ${ups.join(', ')}` : ''}.`;
}

/** Reads the "power" view's columns (typed arrays and number lists) loosely; null when a column is missing. */
export function readPower(cols: Record<string, unknown> | null | undefined): PowerSeries | null {
  if (!cols) return null;
  const arr = (k: string): ArrayLike<number> | null => {
    const v = cols[k];
    if (Array.isArray(v) || ArrayBuffer.isView(v)) return v as unknown as ArrayLike<number>;
    return null;
  };
  const t = arr('t_h');
  const w = arr('watts');
  if (!t || !w) return null;
  const n = t.length;
  const or = (k: string) => arr(k) ?? new Float64Array(n);
  const upH = arr('spin_up_h') ?? [];
  return {
    t_h: t, watts: w, spinning: or('spinning'), load_iops: or('load_iops'), ideal_watts: or('ideal_watts'), spin_up_h: upH,
    spin_up_disk: arr('spin_up_disk') ?? [], spin_up_cause: arr('spin_up_cause') ?? new Array<number>(upH.length).fill(2),
  };
}

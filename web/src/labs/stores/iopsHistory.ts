/**
 * The stores' write and read IOPS and their queues over the last minute of virtual time, kept by the page from
 * the snapshots it receives (the session keeps no time series): a sample when virtual time has
 * moved on by at least a step, the oldest dropped past the window. A new session (time going
 * back, or another set of stores) starts it over. Every value is a snapshot's: the page adds
 * none of its own. Pure functions over a plain record the caller holds.
 */
import { fmt, fmtNs } from '../../viz/format';
import type { StoresSnapshot } from './storesTypes';

export interface IopsHistory {
  kinds: string[];
  labels: string[];
  /** Sample times (ns), oldest first. */
  t: number[];
  /** Per store (in `kinds` order), per sample. */
  write: number[][];
  read: number[][];
  /** Operations waiting at each store. */
  queued: number[][];
}

export const WINDOW_NS = 60e9;
export const MIN_STEP_NS = 20e6;
export const MAX_SAMPLES = 1200;

export function emptyHistory(): IopsHistory {
  return { kinds: [], labels: [], t: [], write: [], read: [], queued: [] };
}

/**
 * `h` with the snapshot's rates added (the same object, or a new one when the session is new).
 * The samples before the newest lie at least `minStepNs` apart; the newest is always the
 * snapshot's (it replaces a newest that is not yet a step past the one before).
 */
export function addSample(h: IopsHistory, sn: StoresSnapshot, minStepNs = MIN_STEP_NS, windowNs = WINDOW_NS): IopsHistory {
  const kinds = sn.stores.map((s) => s.kind);
  const last = h.t.length > 0 ? h.t[h.t.length - 1]! : -Infinity;
  if (kinds.join() !== h.kinds.join() || sn.t_ns < last) {
    h = { kinds, labels: sn.stores.map((s) => s.label), t: [], write: kinds.map(() => []), read: kinds.map(() => []), queued: kinds.map(() => []) };
  }
  // The newest sample is provisional until it lies a step past the one before it.
  const n = h.t.length;
  const replace = n > 1 && h.t[n - 1]! - h.t[n - 2]! < minStepNs;
  if (replace || (h.t.length > 0 && sn.t_ns === h.t[h.t.length - 1])) {
    h.t.pop();
    for (const w of h.write) w.pop();
    for (const r of h.read) r.pop();
    for (const q of h.queued) q.pop();
  }
  h.t.push(sn.t_ns);
  sn.stores.forEach((s, i) => {
    h.write[i]!.push(s.writes > 0 ? s.write_iops : 0);
    h.read[i]!.push(s.reads > 0 ? s.read_iops : 0);
    h.queued[i]!.push(s.queued);
  });
  let drop = 0;
  while (drop < h.t.length - 1 && (h.t[drop]! < sn.t_ns - windowNs || h.t.length - drop > MAX_SAMPLES)) drop++;
  if (drop > 0) {
    h.t.splice(0, drop);
    for (const w of h.write) w.splice(0, drop);
    for (const r of h.read) r.splice(0, drop);
    for (const q of h.queued) q.splice(0, drop);
  }
  return h;
}

/** The sample nearest virtual time `t` (-1 when there is none). */
export function nearestSample(h: IopsHistory, t: number): number {
  let best = -1;
  let d = Infinity;
  for (let i = 0; i < h.t.length; i++) {
    const e = Math.abs(h.t[i]! - t);
    if (e < d) {
      d = e;
      best = i;
    }
  }
  return best;
}

/** The rates at sample `i`, in words (the chart's readout). */
export function sampleLine(h: IopsHistory, i: number): string {
  if (i < 0 || i >= h.t.length) return '';
  const per = h.kinds.map((_k, s) => {
    const q = h.queued[s]![i]!;
    return `${h.labels[s]} ${fmt(h.write[s]![i]!)} write, ${fmt(h.read[s]![i]!)} read${q > 0 ? `, ${fmt(q)} waiting` : ''}`;
  });
  return `At ${fmtNs(h.t[i]!)} (IOPS): ${per.join('; ')}.`;
}

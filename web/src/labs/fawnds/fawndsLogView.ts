/**
 * The FAWN-DS log view: each store's append-only log as a row of records along one shared
 * axis of log offset (bytes), coloured by state (live, orphaned, deleted, out of range, lost).
 * When records are wider than a few pixels each is a cell (delete records crossed, the key's
 * first hex digits inside when there is room); when they are denser, each pixel column shows
 * the share of its bytes in each state, so a million records draw as fast as ten. A running
 * maintenance operation shows its scan position in the source and its lock; the last lookup's
 * record reads are marked. Pure: logScene() computes a Scene, the app paints it.
 */
import type { FawndsLog, FawndsStoreRole, RecordStateName } from './fawndsTypes';
import { FLAG_DELETE, FLAG_REPLAYED, RECORD_STATES, STATE_MASK } from './fawndsTypes';
import { FONT, FONT_BOLD, FONT_MONO, FONT_SMALL, type Scene, type SceneItem } from '../../viz/canvasScene';
import { fmtBytes } from '../../viz/format';

export const LOG_COLOURS: Record<RecordStateName, string> = {
  live: '#0072B2',
  orphaned: '#E69F00',
  deleted: '#CC79A7',
  'out of range': '#aab1ba',
  lost: '#D55E00',
};
const REPLAYED = '#009E73';
const HIT = '#009E73';
const FALSE_POSITIVE = '#D55E00';
const TRACK = '#eef0f3';

export const LABEL_W = 190;
const RIGHT = 18;
const LEGEND_H = 46;
export const ROW_H = 44;
const CELL_H = 24;
const AXIS_H = 46;

export interface LogRow {
  id: number;
  /** "(4000…, 8000…]" */
  range: string;
  role: FawndsStoreRole;
  /** The log's capacity in bytes (its file minus headers and index images). */
  capacity: number;
  log: FawndsLog | null;
  /** The scan position of the maintenance operation reading this log. */
  scan?: number;
  /** Held by a maintenance lock. */
  locked?: boolean;
  /** Log offsets the last lookup read, and whether each was a false positive. */
  reads?: Array<{ offset: number; falsePositive: boolean }>;
  /** What the row is doing, for its label ("compacting into store 4"). */
  note?: string;
  /** Keys as typed, by their top 32 bits (what `log.keys` holds), where the page knows them. */
  names?: ReadonlyMap<number, string>;
}

/** Record i's key: “apple” when its typed key is known, else its first hex digits "3b2f09a1…". */
export function keyLabel(log: FawndsLog, i: number, names?: ReadonlyMap<number, string>): string {
  const k = log.keys[i]!;
  const name = names?.get(k);
  return name !== undefined ? `“${name}”` : `${k.toString(16).padStart(8, '0')}…`;
}

/** The byte range [start, end) of the logs on screen. */
export interface LogViewport {
  start: number;
  end: number;
}

export interface LogCursor {
  row: number;
  record: number;
}

export interface LogLayout {
  width: number;
  height: number;
  plotX: number;
  plotW: number;
  rowY: (i: number) => number;
  x: (offset: number) => number;
  offsetAt: (x: number) => number;
}

/** A record's size: the next one's offset minus its own (the last: log end minus offset). */
export function recordSize(log: FawndsLog, i: number): number {
  return (i + 1 < log.offsets.length ? log.offsets[i + 1]! : log.logEnd) - log.offsets[i]!;
}

/** The first record whose bytes end after `offset`. */
export function firstRecordAfter(log: FawndsLog, offset: number): number {
  let lo = 0;
  let hi = log.offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (log.offsets[mid]! + recordSize(log, mid) <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The record holding byte `offset`, or -1. */
export function recordAt(log: FawndsLog, offset: number): number {
  const i = firstRecordAfter(log, offset);
  return i < log.offsets.length && log.offsets[i]! <= offset ? i : -1;
}

export function stateOf(flags: number): RecordStateName {
  return RECORD_STATES[flags & STATE_MASK] ?? 'live';
}

/** About six round tick positions in [start, end]: steps of 1, 2 or 5 × 10^n bytes, KB or MB. */
export function byteTicks(start: number, end: number, target = 6): number[] {
  const span = Math.max(1, end - start);
  const raw = span / target;
  const unit = raw >= 1024 * 1024 ? 1024 * 1024 : raw >= 1024 ? 1024 : 1;
  const r = raw / unit;
  const p = 10 ** Math.floor(Math.log10(r));
  const m = r / p;
  const step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p * unit;
  const out: number[] = [];
  for (let v = Math.ceil(start / step) * step; v <= end + 1e-9; v += step) out.push(v);
  return out;
}

/** The viewport that shows every log whole (at least 256 bytes wide, so a few records are cells). */
export function fitViewport(rows: LogRow[]): LogViewport {
  const end = Math.max(256, ...rows.map((r) => (r.log ? r.log.logEnd : 0)));
  return { start: 0, end: Math.ceil(end * 1.04) };
}

/** Zooms by `factor` (< 1: in) around offset `at`, kept within [0, limit] and at least 64 bytes wide. */
export function zoomViewport(v: LogViewport, factor: number, at: number, limit: number): LogViewport {
  const span = Math.min(limit, Math.max(64, (v.end - v.start) * factor));
  const frac = v.end > v.start ? (at - v.start) / (v.end - v.start) : 0.5;
  let start = at - frac * span;
  start = Math.max(0, Math.min(start, limit - span));
  return { start, end: start + span };
}

/** Moves the viewport by `fraction` of its width, within [0, limit]. */
export function panViewport(v: LogViewport, fraction: number, limit: number): LogViewport {
  const span = v.end - v.start;
  const start = Math.max(0, Math.min(v.start + fraction * span, Math.max(0, limit - span)));
  return { start, end: start + span };
}

/** Below this width (a phone) the labels drop the store's range and the legend takes more lines. */
const NARROW = 480;
const NARROW_LABEL_W = 96;
const NARROW_LEGEND_H = 100;

export function logLayout(rows: number, width: number, viewport: LogViewport): LogLayout {
  const narrow = width < NARROW;
  const plotX = narrow ? NARROW_LABEL_W : LABEL_W;
  const legendH = narrow ? NARROW_LEGEND_H : LEGEND_H;
  const plotW = Math.max(100, width - plotX - RIGHT);
  const span = Math.max(1, viewport.end - viewport.start);
  return {
    width,
    height: legendH + Math.max(1, rows) * ROW_H + AXIS_H,
    plotX,
    plotW,
    rowY: (i) => legendH + i * ROW_H,
    x: (o) => plotX + ((o - viewport.start) / span) * plotW,
    offsetAt: (x) => viewport.start + ((x - plotX) / plotW) * span,
  };
}

const ROLE_TEXT: Record<FawndsStoreRole, string> = {
  serving: '',
  source: 'being scanned',
  destination: 'receiving copies',
  building: 'new store, being written',
  crashed: 'crashed',
};

/** One-line description of a record, for the keyboard readout and the tooltip. */
export function describeRecord(row: LogRow, i: number): string {
  const log = row.log;
  if (!log || i < 0 || i >= log.offsets.length) return `store ${row.id}: no record`;
  const f = log.flags[i]!;
  const type = f & FLAG_DELETE ? 'delete' : 'put';
  const key = keyLabel(log, i, row.names);
  const replayed = f & FLAG_REPLAYED ? ', replayed by the last recovery' : '';
  return `store ${row.id}, record ${(i + 1).toLocaleString('en-US')} of ${log.offsets.length.toLocaleString('en-US')}: ${type} of key ${key} at log offset ${log.offsets[i]!.toLocaleString('en-US')} (${recordSize(log, i)} bytes), ${stateOf(f)}${replayed}`;
}

/** Records per state over all rows. */
export function stateTotals(rows: LogRow[]): number[] {
  const t = [0, 0, 0, 0, 0];
  for (const r of rows) r.log?.counts.forEach((c, k) => (t[k]! += c));
  return t;
}

export interface LogSceneOptions {
  width: number;
  crashed: boolean;
  cursor?: LogCursor | null;
  /** Draw records as cells when each is at least this many pixels wide on average. */
  minCellPx?: number;
}

export function logScene(rows: LogRow[], viewport: LogViewport, opts: LogSceneOptions): { scene: Scene; layout: LogLayout } {
  const L = logLayout(rows.length, opts.width, viewport);
  const items: SceneItem[] = [];
  const minCell = opts.minCellPx ?? 3;

  // Legend.
  const totals = stateTotals(rows);
  const narrow = opts.width < NARROW;
  let lx = 0;
  let ly = 0;
  RECORD_STATES.forEach((s, k) => {
    const label = `${s} ${totals[k]!.toLocaleString('en-US')}`;
    const w = 26 + label.length * 6.2;
    if (narrow && lx > 0 && lx + w > opts.width) {
      lx = 0;
      ly += 18;
    }
    items.push({ t: 'rect', x: lx, y: 6 + ly, w: 12, h: 12, fill: LOG_COLOURS[s] });
    items.push({ t: 'text', x: lx + 16, y: 16 + ly, text: label, font: FONT_SMALL });
    lx += w;
  });
  // On a phone the marks take a line each after the states (which take up to three).
  const y2 = narrow ? 34 : 0;
  const [x3, y3] = narrow ? [0, 52] : [262, 0];
  items.push({ t: 'line', x1: 2, y1: 28 + y2, x2: 12, y2: 40 + y2, stroke: '#1f2328', lw: 1.5 });
  items.push({ t: 'text', x: 16, y: 38 + y2, text: 'delete record', font: FONT_SMALL });
  items.push({ t: 'rect', x: 110, y: 37 + y2, w: 12, h: 3, fill: REPLAYED });
  items.push({ t: 'text', x: 126, y: 38 + y2, text: 'replayed by recovery', font: FONT_SMALL });
  items.push({ t: 'path', points: [[x3, 29 + y3], [x3 + 6, 29 + y3], [x3 + 3, 37 + y3], [x3, 29 + y3]], stroke: HIT, lw: 2 });
  items.push({ t: 'text', x: x3 + 12, y: 38 + y3, text: 'read by the last lookup (red: false positive)', font: FONT_SMALL });

  rows.forEach((row, ri) => {
    const y = L.rowY(ri);
    const cy = y + 12;
    // Label.
    items.push({ t: 'text', x: 0, y: y + 17, text: `store ${row.id}`, font: FONT_BOLD });
    if (!narrow) items.push({ t: 'text', x: 56, y: y + 17, text: row.range, font: FONT_MONO, fill: '#4b5563' });
    const n = row.log?.offsets.length ?? 0;
    const count = row.log ? `${n.toLocaleString('en-US')} record${n === 1 ? '' : 's'}` : 'loading…';
    const sub = row.note ?? ROLE_TEXT[row.role];
    items.push({ t: 'text', x: 0, y: y + 32, text: sub ? `${count} · ${sub}` : count, font: FONT_SMALL, fill: '#4b5563' });
    // The file's log space on screen.
    const x0 = Math.max(L.plotX, L.x(0));
    const x1 = Math.min(L.plotX + L.plotW, L.x(row.capacity));
    if (x1 > x0) items.push({ t: 'rect', x: x0, y: cy, w: x1 - x0, h: CELL_H, fill: TRACK, tag: `store ${row.id} log space` });
    const log = row.log;
    if (log && log.offsets.length > 0) {
      const first = firstRecordAfter(log, viewport.start);
      let last = firstRecordAfter(log, viewport.end);
      if (last < log.offsets.length && log.offsets[last]! < viewport.end) last++;
      const n = last - first;
      const pxPerRecord = n > 0 ? (Math.min(L.x(log.logEnd), L.plotX + L.plotW) - Math.max(L.plotX, L.x(log.offsets[first]!))) / n : 0;
      if (n > 0 && pxPerRecord >= minCell) {
        drawCells(items, L, log, first, last, cy, opts.crashed, row.names);
      } else if (n > 0) {
        drawColumns(items, L, log, first, last, cy, viewport);
      }
      // The log's end.
      const ex = L.x(log.logEnd);
      if (ex >= L.plotX && ex <= L.plotX + L.plotW) items.push({ t: 'line', x1: ex, y1: cy - 3, x2: ex, y2: cy + CELL_H + 3, stroke: '#1f2328', lw: 1 });
    }
    for (const r of row.reads ?? []) {
      if (!log) break;
      const i = recordAt(log, r.offset);
      const mx = L.x(r.offset + (i >= 0 ? recordSize(log, i) / 2 : 0));
      if (mx < L.plotX || mx > L.plotX + L.plotW) continue;
      items.push({ t: 'path', points: [[mx - 4, cy - 9], [mx + 4, cy - 9], [mx, cy - 1], [mx - 4, cy - 9]], stroke: r.falsePositive ? FALSE_POSITIVE : HIT, lw: 2 });
    }
    if (row.scan !== undefined) {
      const sx = L.x(row.scan);
      if (sx >= L.plotX && sx <= L.plotX + L.plotW) {
        items.push({ t: 'line', x1: sx, y1: cy - 6, x2: sx, y2: cy + CELL_H + 6, stroke: '#1f2328', lw: 2, dash: [3, 2] });
        items.push({ t: 'text', x: sx + 3, y: cy - 2, text: 'scan', font: FONT_SMALL });
      }
    }
    if (row.locked) {
      items.push({ t: 'rect', x: L.plotX - 2, y: cy - 2, w: L.plotW + 4, h: CELL_H + 4, stroke: '#1f2328', lw: 2 });
      const bx = L.plotX + L.plotW / 2 - 28;
      items.push({ t: 'rect', x: bx, y: cy + 4, w: 56, h: 16, fill: '#1f2328' });
      items.push({ t: 'text', x: bx + 28, y: cy + 16, text: 'LOCKED', fill: '#ffffff', font: FONT_SMALL, align: 'center' });
    }
  });

  // Cursor.
  const c = opts.cursor;
  const crow = c ? rows[c.row] : undefined;
  if (c && crow?.log && c.record >= 0 && c.record < crow.log.offsets.length) {
    const cy = L.rowY(c.row) + 12;
    const o = crow.log.offsets[c.record]!;
    const x0 = Math.max(L.plotX, L.x(o));
    const x1 = Math.min(L.plotX + L.plotW, L.x(o + recordSize(crow.log, c.record)));
    if (x1 >= L.plotX && x0 <= L.plotX + L.plotW) {
      items.push({ t: 'rect', x: x0 - 1.5, y: cy - 2.5, w: Math.max(2, x1 - x0) + 3, h: CELL_H + 5, stroke: '#1f2328', lw: 2, tag: 'cursor' });
    }
  }

  // Axis.
  const ay = L.rowY(rows.length) + 6;
  items.push({ t: 'line', x1: L.plotX, y1: ay, x2: L.plotX + L.plotW, y2: ay, stroke: '#6b7280' });
  const ticks = byteTicks(viewport.start, viewport.end);
  const thin = Math.max(1, Math.ceil((ticks.length * 48) / L.plotW)); // labels at least 48 px apart
  for (const v of ticks.filter((_, i) => i % thin === 0)) {
    const x = L.x(v);
    items.push({ t: 'line', x1: x, y1: ay, x2: x, y2: ay + 5, stroke: '#6b7280' });
    items.push({ t: 'text', x, y: ay + 17, text: fmtBytes(v), align: 'center', font: FONT_SMALL });
  }
  items.push({ t: 'text', x: L.plotX + L.plotW / 2, y: ay + 36, text: 'log offset (bytes; 1 KB = 1024 bytes)', align: 'center', font: FONT });
  return { scene: { width: L.width, height: L.height, items }, layout: L };
}

function drawCells(items: SceneItem[], L: LogLayout, log: FawndsLog, first: number, last: number, cy: number, crashed: boolean, names?: ReadonlyMap<number, string>): void {
  const left = L.plotX;
  const right = L.plotX + L.plotW;
  for (let i = first; i < last; i++) {
    const o = log.offsets[i]!;
    const f = log.flags[i]!;
    const xa = Math.max(left, L.x(o));
    const xb = Math.min(right, L.x(o + recordSize(log, i)));
    const w = xb - xa;
    if (w <= 0) continue;
    const gap = w >= 4 ? 1 : 0;
    const state = stateOf(f);
    items.push({ t: 'rect', x: xa, y: cy, w: w - gap, h: CELL_H, fill: LOG_COLOURS[state] });
    if (f & FLAG_DELETE && w >= 4) items.push({ t: 'line', x1: xa + 1, y1: cy + 2, x2: xb - gap - 1, y2: cy + CELL_H - 2, stroke: crashed ? '#4b5563' : '#1f2328', lw: 1.5 });
    if (f & FLAG_REPLAYED) items.push({ t: 'rect', x: xa, y: cy + CELL_H + 1, w: w - gap, h: 3, fill: REPLAYED });
    if (w >= 64) {
      const full = keyLabel(log, i, names);
      const fit = Math.max(9, Math.floor((w - gap - 6) / 6.8));  // 11 px monospace characters that fit (a hex label's 9 at least)
      const key = full.length <= fit ? full : `${full.slice(0, fit - 1)}…`;
      items.push({ t: 'text', x: xa + (w - gap) / 2, y: cy + 16, text: key, font: FONT_MONO, align: 'center', fill: state === 'out of range' || state === 'orphaned' ? '#1f2328' : '#ffffff' });
    }
  }
}

function drawColumns(items: SceneItem[], L: LogLayout, log: FawndsLog, first: number, last: number, cy: number, v: LogViewport): void {
  // Bytes per state in each pixel column (a record's bytes shared among the columns it spans).
  const cols = Math.ceil(L.plotW);
  const bytes = new Float64Array(cols * 5);
  const scale = L.plotW / (v.end - v.start);
  let replayed = -1;
  let replayedTo = -1;
  for (let i = first; i < last; i++) {
    const o = log.offsets[i]!;
    const f = log.flags[i]!;
    const k = f & STATE_MASK;
    const a = Math.max(0, (o - v.start) * scale);
    const b = Math.min(cols, (o + recordSize(log, i) - v.start) * scale);
    for (let c = Math.floor(a); c < b && c < cols; c++) bytes[c * 5 + k]! += Math.min(b, c + 1) - Math.max(a, c);
    if (f & FLAG_REPLAYED) {
      if (replayed < 0) replayed = Math.floor(a);
      replayedTo = Math.max(replayedTo, Math.floor(a));
    }
  }
  // Stacked shares, live at the bottom; adjacent columns with the same shares merge.
  let prev = '';
  let start = 0;
  const flush = (end: number) => {
    if (!prev) return;
    const shares = prev.split(',').map(Number);
    const sum = shares.reduce((a, b) => a + b, 0);
    let yb = cy + CELL_H;
    shares.forEach((s, k) => {
      if (s <= 0) return;
      const h = (s / sum) * CELL_H;
      items.push({ t: 'rect', x: L.plotX + start, y: yb - h, w: end - start, h, fill: LOG_COLOURS[RECORD_STATES[k]!] });
      yb -= h;
    });
  };
  for (let c = 0; c < cols; c++) {
    let total = 0;
    for (let k = 0; k < 5; k++) total += bytes[c * 5 + k]!;
    const key = total > 0 ? Array.from({ length: 5 }, (_, k) => Math.round((bytes[c * 5 + k]! / total) * 1000)).join(',') : '';
    if (key !== prev) {
      flush(c);
      prev = key;
      start = c;
    }
  }
  flush(cols);
  if (replayed >= 0) items.push({ t: 'rect', x: L.plotX + replayed, y: cy + CELL_H + 1, w: replayedTo - replayed + 1, h: 3, fill: REPLAYED });
}

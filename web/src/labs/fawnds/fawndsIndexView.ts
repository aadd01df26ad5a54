/**
 * The FAWN-DS index view: one store's in-DRAM hash index as a grid of buckets (row-major, a
 * power-of-two number per row). A valid bucket is filled; with more buckets than cells each
 * cell shades the share of its buckets that are valid. The last lookup's probe sequence is
 * drawn over it: each probed bucket outlined in the colour of what happened there (empty,
 * another key's fragment, a fragment match that was a false positive — one wasted flash read —
 * or the hit), numbered in probe order and joined by a line. Pure: indexScene() computes a
 * Scene, the app paints it.
 */
import type { FawndsIndexCells, FawndsLookup, FawndsProbeOutcome } from './fawndsTypes';
import { FONT, FONT_BOLD, FONT_MONO, FONT_SMALL, type Scene, type SceneItem } from '../../viz/canvasScene';

export const PROBE_COLOURS: Record<FawndsProbeOutcome, string> = {
  hit: '#009E73',
  'false-positive': '#D55E00',
  other: '#6b7280',
  empty: '#9aa3ad',
  free: '#CC79A7',
};
export const PROBE_LABELS: Record<FawndsProbeOutcome, string> = {
  hit: 'fragment match, same key: the hit (1 flash read)',
  'false-positive': 'fragment match, other key: false positive (1 wasted read)',
  other: 'valid, other fragment (no read)',
  empty: 'empty (no read; the probe goes on)',
  free: 'the empty bucket the put took',
};
/** The same, short enough for a phone's narrow view. */
const PROBE_LABELS_SHORT: Record<FawndsProbeOutcome, string> = {
  hit: 'match, same key: the hit (1 read)',
  'false-positive': 'match, other key: false positive (1 read)',
  other: 'valid, other fragment (no read)',
  empty: 'empty (no read; goes on)',
  free: 'the empty bucket the put took',
};
const VALID = '#0072B2';
const EMPTY = '#ffffff';
const GRID = '#d0d7de';

const LEGEND_H = 124;
const LEFT = 64;
const AXIS_H = 34;

/** Grid columns for `cells` cells: a power of two near the square root. */
export function gridColumns(cells: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, cells)) / 2);
}

/** How to show a store's 2^bits buckets in at most 4096 cells: the group size and cell count. */
export function indexCellPlan(bits: number, maxCells = 4096): { count: number; group: number } {
  const buckets = 2 ** bits;
  const group = Math.max(1, buckets / maxCells);
  return { count: buckets / group, group };
}

export interface IndexLayout {
  width: number;
  height: number;
  cols: number;
  rows: number;
  cell: number;
  gridX: number;
  gridY: number;
  /** The centre of the cell holding `bucket`. */
  centre: (bucket: number) => { x: number; y: number };
  /** The cell under (x, y), or -1. */
  cellAt: (x: number, y: number) => number;
}

export function indexLayout(cells: FawndsIndexCells, width: number): IndexLayout {
  const count = cells.valid.length;
  const cols = gridColumns(count);
  const rows = Math.ceil(count / cols);
  // At most about 440 px of grid: a whole 4096-bucket index fits beside the lookup panel.
  const cell = Math.max(3, Math.min(28, Math.floor((Math.min(width, 520) - LEFT - 8) / cols)));
  const gridX = LEFT;
  const gridY = LEGEND_H;
  return {
    width,
    height: gridY + rows * cell + AXIS_H,
    cols,
    rows,
    cell,
    gridX,
    gridY,
    centre: (bucket) => {
      const c = Math.floor((bucket - cells.first) / cells.group);
      return { x: gridX + (c % cols) * cell + cell / 2, y: gridY + Math.floor(c / cols) * cell + cell / 2 };
    },
    cellAt: (x, y) => {
      const cx = Math.floor((x - gridX) / cell);
      const cy = Math.floor((y - gridY) / cell);
      if (cx < 0 || cx >= cols || cy < 0 || cy >= rows) return -1;
      const c = cy * cols + cx;
      return c < count ? c : -1;
    },
  };
}

/** One-line description of cell `c`, for the keyboard readout and the tooltip. */
export function describeCell(cells: FawndsIndexCells, c: number): string {
  if (c < 0 || c >= cells.valid.length) return 'no bucket';
  const first = cells.first + c * cells.group;
  if (cells.group > 1) {
    return `buckets ${first.toLocaleString('en-US')}–${(first + cells.group - 1).toLocaleString('en-US')}: ${cells.valid[c]} of ${cells.group} valid`;
  }
  const f = cells.fragments[c]!;
  if (!(f & 0x8000)) return `bucket ${first.toLocaleString('en-US')}: empty (valid bit 0)`;
  return `bucket ${first.toLocaleString('en-US')}: valid, key fragment 0x${(f & 0x7fff).toString(16).padStart(4, '0')}, log offset ${cells.offsets[c]!.toLocaleString('en-US')}`;
}

export interface IndexSceneOptions {
  width: number;
  store: number;
  lookup: FawndsLookup | null;
  cursor?: number | null;
}

export function indexScene(cells: FawndsIndexCells, opts: IndexSceneOptions): { scene: Scene; layout: IndexLayout } {
  const L = indexLayout(cells, opts.width);
  const items: SceneItem[] = [];
  const buckets = 2 ** cells.indexBits;
  let valid = 0;
  for (const v of cells.valid) valid += v;

  // Title and legend (one column, so it fits beside the lookup panel).
  items.push({ t: 'text', x: 0, y: 14, font: FONT_BOLD, text: `store ${opts.store}: 2^${cells.indexBits} buckets × 6 B = ${fmtKb(buckets * 6)} of DRAM` });
  items.push({ t: 'text', x: 0, y: 30, font: FONT_SMALL, fill: '#4b5563',
    text: `${buckets.toLocaleString('en-US')} buckets, ${valid.toLocaleString('en-US')} valid (${((valid / buckets) * 100).toFixed(1)}% full)${cells.group > 1 ? `; ${cells.group} per cell` : ''}` });
  items.push({ t: 'rect', x: 0, y: 38, w: 10, h: 10, fill: VALID });
  items.push({ t: 'text', x: 16, y: 47, text: cells.group > 1 ? 'valid (shade: share of the cell)' : 'valid bucket', font: FONT_SMALL });
  const ex = Math.max(150, Math.min(250, opts.width - 92)); // nearer on a phone
  items.push({ t: 'rect', x: ex, y: 38, w: 10, h: 10, fill: EMPTY, stroke: GRID });
  items.push({ t: 'text', x: ex + 16, y: 47, text: 'empty bucket', font: FONT_SMALL });
  const outcomes: FawndsProbeOutcome[] = ['hit', 'false-positive', 'other', 'empty', 'free'];
  outcomes.forEach((o, k) => {
    const y = 52 + k * 13;
    items.push({ t: 'rect', x: 0, y, w: 10, h: 10, stroke: PROBE_COLOURS[o], lw: 2, dash: o === 'empty' ? [2, 2] : undefined });
    items.push({ t: 'text', x: 16, y: y + 9, text: `probe: ${(opts.width < 420 ? PROBE_LABELS_SHORT : PROBE_LABELS)[o]}`, font: FONT_SMALL });
  });

  // Buckets.
  const { cell, cols, gridX, gridY } = L;
  const gap = cell >= 6 ? 1 : 0;
  for (let c = 0; c < cells.valid.length; c++) {
    const x = gridX + (c % cols) * cell;
    const y = gridY + Math.floor(c / cols) * cell;
    const v = cells.valid[c]!;
    if (cells.group === 1) {
      items.push({ t: 'rect', x, y, w: cell - gap, h: cell - gap, fill: v ? VALID : EMPTY });
      if (v && cell >= 28) {
        items.push({ t: 'text', x: x + cell / 2, y: y + cell / 2 + 4, text: (cells.fragments[c]! & 0x7fff).toString(16), font: FONT_MONO, align: 'center', fill: '#ffffff' });
      }
    } else {
      const share = v / cells.group;
      items.push({ t: 'rect', x, y, w: cell - gap, h: cell - gap, fill: share > 0 ? shade(share) : EMPTY });
    }
  }
  items.push({ t: 'rect', x: gridX - 0.5, y: gridY - 0.5, w: cols * cell, h: L.rows * cell, stroke: GRID });
  // Row labels: the first bucket of every few rows.
  const every = Math.max(1, Math.ceil(16 / cell));
  for (let r = 0; r < L.rows; r += every) {
    items.push({ t: 'text', x: gridX - 6, y: gridY + r * cell + Math.min(cell, 12) - 2, text: String(cells.first + r * cols * cells.group), align: 'right', font: FONT_SMALL, fill: '#4b5563' });
  }
  items.push({ t: 'text', x: gridX + (cols * cell) / 2, y: L.height - 8, align: 'center', font: FONT,
    text: `bucket number: row-major, ${(cols * cells.group).toLocaleString('en-US')} buckets per row` });

  // The probe path of the last lookup in this store.
  const lk = opts.lookup;
  if (lk && lk.store === opts.store) {
    const pts: Array<[number, number]> = [];
    for (const [j, bucket, , , , outcome] of lk.probes) {
      if (bucket < cells.first || bucket >= cells.first + cells.valid.length * cells.group) continue;
      const { x, y } = L.centre(bucket);
      pts.push([x, y]);
      const s = Math.max(cell, 7) + 2;
      items.push({ t: 'rect', x: x - s / 2, y: y - s / 2, w: s, h: s, stroke: PROBE_COLOURS[outcome], lw: 2, dash: outcome === 'empty' ? [2, 2] : undefined, tag: `probe ${j} ${outcome}` });
      if (cell >= 14) items.push({ t: 'text', x: x + s / 2 + 1, y: y - s / 2 + 1, text: String(j), font: FONT_SMALL, fill: '#1f2328', baseline: 'top' });
    }
    if (pts.length > 1) items.push({ t: 'path', points: pts, stroke: 'rgba(31,35,40,0.45)', lw: 1 });
  }

  if (opts.cursor !== undefined && opts.cursor !== null && opts.cursor >= 0 && opts.cursor < cells.valid.length) {
    const x = gridX + (opts.cursor % cols) * cell;
    const y = gridY + Math.floor(opts.cursor / cols) * cell;
    items.push({ t: 'rect', x: x - 2, y: y - 2, w: cell + 3, h: cell + 3, stroke: '#1f2328', lw: 2, tag: 'cursor' });
  }
  return { scene: { width: L.width, height: L.height, items }, layout: L };
}

function fmtKb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1048576) * 10) / 10} MB` : `${Math.round((bytes / 1024) * 10) / 10} KB`;
}

/** Blue at lightness by share (0: white, 1: full). */
function shade(share: number): string {
  const mix = (a: number, b: number) => Math.round(a + (b - a) * Math.min(1, Math.max(0.15, share)));
  return `rgb(${mix(255, 0)},${mix(255, 114)},${mix(255, 178)})`;
}

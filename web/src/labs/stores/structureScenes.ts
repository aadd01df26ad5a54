/**
 * Each store's structure, drawn small from its `structure` object (the store's DescribeJson):
 * - cona: the two insertion buffers, then a row per level with its two cells and the shadow
 *   (a cell's width grows with its level: capacity doubles per level, so a log scale), each
 *   filled as it holds entries; a shadow is dashed orange, filling as its merge writes it.
 * - silt: the LogStore (and the frozen one beside it, dashed orange, while it converts), the
 *   HashStores (one box each, newest first) and the SortedStore (its share of all entries); a
 *   conversion or a merge outlines its source dashed orange.
 * - lsm: the memtable (and the immutable one while it flushes), then a row per level: its bytes
 *   against its target (the tick at 80% of the track; past it vermilion), or its files when
 *   the level has no byte target (L0); the levels in a compaction outlined dashed orange.
 * - fawnds: the log (live bytes, then garbage grey) against its capacity, and the hash index.
 * - btree: a row per tree level with its pages, widening (log scale) from the root to the
 *   leaves (the internal pages under the root spread evenly over the levels between), and the
 *   buffer pool with its dirty pages.
 * Every mark is labelled in the picture and the same figures are in the sentence beside it
 * (storesReadout.structureSummary). Pure: storeScene() computes a Scene.
 */
import { fmt } from '../../viz/format';
import { shortBytes } from './storesReadout';
import { FONT_SMALL, type Scene, type SceneItem } from '../../viz/canvasScene';
import { ST } from './storesPalette';
import type { StoreStructure } from './storesTypes';

/** The row label's column. */
const LABEL = 52;
const ROW = 14;
const GAP = 5;
const TOP = 4;
/** Most rows a structure draws (levels past it are named in a last line). */
const MAX_ROWS = 9;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const frac = (a: number, b: number) => (b > 0 ? Math.max(0, Math.min(1, a / b)) : 0);

interface Ctx {
  items: SceneItem[];
  width: number;
  /** The track's left edge and width. */
  x0: number;
  trackW: number;
  y: number;
}

function ctxAt(width: number): Ctx {
  return { items: [], width, x0: LABEL, trackW: Math.max(40, width - LABEL - 6), y: TOP };
}

/** A row's label; a row in background work gets an orange bar at its left edge (the text stays dark, to read). */
function label(c: Ctx, text: string, working = false): void {
  if (working) c.items.push({ t: 'rect', x: 0, y: c.y, w: 3, h: ROW, fill: ST.work, tag: 'work-mark' });
  c.items.push({ t: 'text', x: 6, y: c.y + ROW - 3, text, font: FONT_SMALL, fill: ST.ink });
}

/** A track with a fill from its left; text at its right end, inside. */
function bar(c: Ctx, x: number, w: number, f: number, opts: { fill?: string; text?: string; tag?: string; outline?: string; dash?: boolean } = {}): void {
  c.items.push({ t: 'rect', x, y: c.y, w, h: ROW, fill: ST.empty, stroke: opts.outline ?? ST.edge, lw: opts.outline ? 1.5 : 1, dash: opts.dash ? [4, 2] : undefined, tag: opts.tag });
  if (f > 0) c.items.push({ t: 'rect', x, y: c.y, w: Math.max(1, w * f), h: ROW, fill: opts.fill ?? ST.data });
  if (opts.text) c.items.push({ t: 'text', x: x + w - 3, y: c.y + ROW - 3, text: opts.text, font: FONT_SMALL, align: 'right', fill: ST.ink });
}

function next(c: Ctx): void {
  c.y += ROW + GAP;
}

function done(c: Ctx): Scene {
  return { width: c.width, height: Math.ceil(c.y - GAP + TOP + 2), items: c.items };
}

function conaScene(s: Record<string, unknown>, width: number): Scene {
  const c = ctxAt(width);
  const cap = num(s.buffer_capacity);
  const b = arr(s.buffers).map(num);
  const half = (c.trackW - 6) / 2;
  label(c, 'buffers');
  bar(c, c.x0, half, frac(b[0] ?? 0, cap), { tag: 'buffer-active', text: fmt(b[0] ?? 0) });
  bar(c, c.x0 + half + 6, half, frac(b[1] ?? 0, cap), { tag: 'buffer-frozen', text: fmt(b[1] ?? 0) });
  next(c);
  const levels = arr(s.levels).map(obj);
  if (levels.length === 0) {
    c.items.push({ t: 'text', x: c.x0, y: c.y + ROW - 3, text: 'no levels yet', font: FONT_SMALL, fill: ST.axis });
    next(c);
    return done(c);
  }
  const shown = levels.slice(0, MAX_ROWS);
  const deepest = Math.max(1, ...shown.map((l) => num(l.level)));
  const slotW = (c.trackW - 8) / 3;
  for (const l of shown) {
    const lv = num(l.level);
    const merging = s.merging === true && num(s.merge_level) === lv;
    // Capacity doubles per level: widths on a log scale, level 1 narrowest.
    const w = slotW * (deepest <= 1 ? 1 : 0.3 + (0.7 * (lv - 1)) / (deepest - 1));
    label(c, `L${lv}`, merging);
    const cells = arr(l.cells).map(obj);
    for (let slot = 0; slot < 3; slot++) {
      const x = c.x0 + slot * (slotW + 4);
      const cell = cells.find((x) => num(x.slot) === slot);
      const shadow = slot === 2 || (cell !== undefined && cell.visible === false);
      if (!cell) {
        c.items.push({ t: 'rect', x, y: c.y, w, h: ROW, stroke: ST.empty, tag: `L${lv}-${slot}-free` });
        continue;
      }
      if (shadow) bar(c, x, w, frac(num(cell.merged), num(cell.capacity)), { fill: ST.work, outline: ST.work, dash: true, tag: `L${lv}-shadow` });
      else bar(c, x, w, frac(num(cell.entries), num(cell.capacity)), { tag: `L${lv}-${slot}` });
    }
    next(c);
  }
  if (levels.length > shown.length) {
    c.items.push({ t: 'text', x: c.x0, y: c.y + ROW - 3, text: `+ ${levels.length - shown.length} deeper levels`, font: FONT_SMALL, fill: ST.axis });
    next(c);
  }
  return done(c);
}

function siltScene(s: Record<string, unknown>, width: number): Scene {
  const c = ctxAt(width);
  const log = obj(s.log);
  const hs = arr(s.hash_stores).map(obj);
  const sorted = num(obj(s.sorted).entries);
  // The active LogStore, and beside it the frozen one while it waits for or is in its conversion.
  const frozen = s.frozen_log && typeof s.frozen_log === 'object' ? obj(s.frozen_log) : null;
  const frozenW = frozen ? Math.min(60, c.trackW * 0.3) : 0;
  const logW = frozen ? c.trackW - frozenW - 4 : c.trackW;
  label(c, 'log', s.converting === true);
  bar(c, c.x0, logW, frac(num(log.entries), num(log.capacity)), {
    tag: 'log', text: `${fmt(num(log.entries))} / ${fmt(num(log.capacity))}`,
    outline: s.converting && !frozen ? ST.work : undefined, dash: s.converting === true && !frozen,
  });
  if (frozen) {
    bar(c, c.x0 + logW + 4, frozenW, frac(num(frozen.entries), num(frozen.capacity)), { tag: 'frozen-log', outline: ST.work, dash: true, fill: ST.work });
    c.items.push({ t: 'text', x: c.x0 + logW + 4 + frozenW / 2, y: c.y + ROW - 3, text: 'frozen', font: FONT_SMALL, align: 'center', fill: ST.ink });
  }
  next(c);
  label(c, 'hash', s.merging === true);
  if (hs.length === 0) {
    c.items.push({ t: 'text', x: c.x0, y: c.y + ROW - 3, text: 'none yet', font: FONT_SMALL, fill: ST.axis });
  } else {
    const boxW = Math.max(12, Math.min(40, (c.trackW - 40) / hs.length - 3));
    const fit = Math.max(1, Math.floor((c.trackW - 34) / (boxW + 3)));
    hs.slice(0, fit).forEach((h, i) => {
      bar(c, c.x0 + i * (boxW + 3), boxW, frac(num(h.entries), num(h.capacity)), { tag: `hash-${i}`, outline: s.merging ? ST.work : undefined, dash: s.merging === true });
    });
    const more = hs.length > fit ? ` +${hs.length - fit}` : '';
    c.items.push({ t: 'text', x: c.x0 + c.trackW - 3, y: c.y + ROW - 3, text: more ? `${hs.length} (${more.trim()} more)` : `${hs.length}`, font: FONT_SMALL, align: 'right', fill: ST.ink });
  }
  next(c);
  label(c, 'sorted');
  const total = sorted + num(log.entries) + (frozen ? num(frozen.entries) : 0) + hs.reduce((a, h) => a + num(h.entries), 0);
  bar(c, c.x0, c.trackW, frac(sorted, total), { tag: 'sorted', text: `${fmt(sorted)} entries` });
  next(c);
  return done(c);
}

function lsmScene(s: Record<string, unknown>, width: number): Scene {
  const c = ctxAt(width);
  const mem = obj(s.memtable);
  const immW = 34;
  label(c, 'mem', s.immutable === true);
  const memW = s.immutable ? c.trackW - immW - 4 : c.trackW;
  bar(c, c.x0, memW, frac(num(mem.bytes), num(mem.capacity)), { tag: 'memtable', text: shortBytes(num(mem.bytes)) });
  if (s.immutable) {
    bar(c, c.x0 + memW + 4, immW, 1, { fill: ST.work, outline: ST.work, dash: true, tag: 'immutable' });
    c.items.push({ t: 'text', x: c.x0 + memW + 4 + immW / 2, y: c.y + ROW - 3, text: 'imm', font: FONT_SMALL, align: 'center', fill: ST.ink });
  }
  next(c);
  const levels = arr(s.levels).map(obj);
  const compacting = typeof s.compacting === 'number' ? s.compacting : -1;
  if (levels.length === 0) {
    c.items.push({ t: 'text', x: c.x0, y: c.y + ROW - 3, text: 'no files yet', font: FONT_SMALL, fill: ST.axis });
    next(c);
    return done(c);
  }
  for (const l of levels.slice(0, MAX_ROWS)) {
    const lv = num(l.level);
    const inCompaction = compacting >= 0 && (lv === compacting || lv === compacting + 1);
    label(c, `L${lv}`, inCompaction);
    const files = num(l.files);
    const bytes = num(l.bytes);
    const target = num(l.target_bytes);
    const text = `${fmt(files)} ${files === 1 ? 'file' : 'files'} · ${shortBytes(bytes)}`;
    const outline = inCompaction ? { outline: ST.work as string, dash: true } : {};
    if (target > 0) {
      // The target at 80% of the track: a level past it shows its excess in vermilion.
      const scale = (0.8 * c.trackW) / target;
      const w = Math.min(c.trackW, bytes * scale);
      bar(c, c.x0, c.trackW, 0, { tag: `L${lv}`, ...outline });
      const within = Math.min(w, 0.8 * c.trackW);
      if (within > 0) c.items.push({ t: 'rect', x: c.x0, y: c.y, w: Math.max(1, within), h: ROW, fill: ST.data });
      if (w > within) c.items.push({ t: 'rect', x: c.x0 + within, y: c.y, w: w - within, h: ROW, fill: ST.over, tag: `L${lv}-over` });
      const tx = c.x0 + 0.8 * c.trackW;
      c.items.push({ t: 'line', x1: tx, y1: c.y - 2, x2: tx, y2: c.y + ROW + 2, stroke: ST.ink, lw: 1.5 });
      c.items.push({ t: 'text', x: c.x0 + 3, y: c.y + ROW - 3, text, font: FONT_SMALL, fill: ST.ink });
    } else {
      // No byte target (L0 is limited by its file count): one box per file.
      bar(c, c.x0, c.trackW, 0, { tag: `L${lv}`, ...outline });
      const fit = Math.max(0, Math.floor((c.trackW * 0.45) / 10));
      for (let i = 0; i < Math.min(files, fit); i++) c.items.push({ t: 'rect', x: c.x0 + 2 + i * 10, y: c.y + 2, w: 8, h: ROW - 4, fill: ST.data, stroke: ST.ink, lw: 0.5 });
      c.items.push({ t: 'text', x: c.x0 + c.trackW - 3, y: c.y + ROW - 3, text, font: FONT_SMALL, align: 'right', fill: ST.ink });
    }
    next(c);
  }
  return done(c);
}

function fawndsScene(s: Record<string, unknown>, width: number): Scene {
  const c = ctxAt(width);
  const cap = num(s.log_capacity);
  const used = num(s.log_bytes);
  const garbage = Math.min(used, num(s.garbage_bytes));
  label(c, 'log');
  bar(c, c.x0, c.trackW, frac(used - garbage, cap), { tag: 'log' });
  if (garbage > 0 && cap > 0) {
    const x = c.x0 + c.trackW * frac(used - garbage, cap);
    c.items.push({ t: 'rect', x, y: c.y, w: Math.max(1, c.trackW * frac(garbage, cap)), h: ROW, fill: ST.garbage, tag: 'garbage' });
  }
  c.items.push({ t: 'text', x: c.x0 + c.trackW - 3, y: c.y + ROW - 3, text: `${shortBytes(used)} / ${shortBytes(cap)}`, font: FONT_SMALL, align: 'right', fill: ST.ink });
  next(c);
  label(c, 'index');
  bar(c, c.x0, c.trackW, frac(num(s.index_used), num(s.index_buckets)), { tag: 'index', text: `${fmt(num(s.index_used))} / ${fmt(num(s.index_buckets))} buckets` });
  next(c);
  return done(c);
}

function btreeScene(s: Record<string, unknown>, width: number): Scene {
  const c = ctxAt(width);
  const height = Math.max(0, Math.min(MAX_ROWS - 1, Math.round(num(s.height))));
  const leaves = Math.max(1, num(s.leaves));
  if (height === 0) {
    c.items.push({ t: 'text', x: c.x0, y: c.y + ROW - 3, text: 'empty tree', font: FONT_SMALL, fill: ST.axis });
    next(c);
  }
  // Pages per tree level: the root (1), the leaves, and the internal pages below the root
  // spread over the levels between, growing geometrically (an even fan-out); with one level
  // between (height 3) that is exactly internals − 1.
  const between = Array.from({ length: Math.max(0, height - 2) }, (_, k) => Math.exp((Math.log(leaves) * (k + 1)) / (height - 1)));
  const sum = between.reduce((a, v) => a + v, 0);
  const inner = Math.max(0, num(s.internals) - 1);
  const pagesAt = (i: number) => (i === 0 ? 1 : i === height - 1 ? leaves : sum > 0 && inner > 0 ? Math.max(1, Math.round((between[i - 1]! * inner) / sum)) : Math.round(between[i - 1] ?? 1));
  for (let i = 0; i < height; i++) {
    const pages = height === 1 ? leaves : pagesAt(i);
    const w = Math.max(18, c.trackW * (leaves <= 1 ? 1 : 0.12 + (0.88 * Math.log(pages + 1)) / Math.log(leaves + 1)));
    const leaf = i === height - 1;
    label(c, leaf ? 'leaves' : i === 0 ? 'root' : `lvl ${i}`);
    bar(c, c.x0 + (c.trackW - w) / 2, w, 1, { tag: leaf ? 'leaves' : `level-${i}` });
    const text = leaf ? fmt(num(s.leaves)) : i === 0 ? '1' : `${height > 3 ? '~' : ''}${fmt(pages)}`;
    c.items.push({ t: 'text', x: c.x0 + c.trackW / 2, y: c.y + ROW - 3, text, font: FONT_SMALL, align: 'center', fill: ST.ink });
    next(c);
  }
  label(c, 'pool');
  const pool = num(s.pool_pages);
  const dirty = num(s.pool_dirty);
  bar(c, c.x0, c.trackW, frac(dirty, pool), { fill: ST.dirty, tag: 'pool', text: `${fmt(pool)} pages, ${fmt(dirty)} dirty` });
  next(c);
  return done(c);
}

function unknownScene(st: StoreStructure, width: number): Scene {
  const c = ctxAt(width);
  c.items.push({ t: 'text', x: 2, y: c.y + ROW - 3, text: `no drawing for a “${String(st.type)}” store: see the line below`, font: FONT_SMALL, fill: ST.axis });
  next(c);
  return done(c);
}

/** A store's structure at `width` CSS px. */
export function storeScene(st: StoreStructure, width: number): Scene {
  const s = st as Record<string, unknown>;
  switch (st.type) {
    case 'cona':
      return conaScene(s, width);
    case 'silt':
      return siltScene(s, width);
    case 'lsm':
      return lsmScene(s, width);
    case 'fawnds':
      return fawndsScene(s, width);
    case 'btree':
      return btreeScene(s, width);
    default:
      return unknownScene(st, width);
  }
}

/**
 * The CONA structure as a canvas scene. On top, the two insertion buffers, in the order a
 * lookup searches them (active, then frozen): each a bar of B entries filled from the left,
 * its sampled keys as ticks where their 16-bit prefixes fall in the filled part (so the sorted
 * array reads left to right, 0000 … ffff), the frozen one dashed and labelled when it waits
 * for a level-1 slot. Below, one row per level: the two visible slots and the shadow in three
 * columns, each cell as wide as its capacity on a log scale (a level holds twice the one
 * above), filled as it holds entries; a shadow fills as its merge streams in, the merge arrow
 * runs from the level merging into it, and a level that just flipped is outlined, the outline thinning as the flip ages. The last
 * lookup draws over it: a numbered marker at each place it searched (at its rank along the
 * bar or cell), joined in order. Pure: structureLayout() places things, structureScene() draws.
 */
import { fmt } from '../../viz/format';
import { FONT_BOLD, FONT_SMALL, type Scene, type SceneItem } from '../../viz/canvasScene';
import { CONA, STEP_STYLES, type StepStyle } from './conaPalette';
import { shadowDone } from './conaReadout';
import type { ConaCell, ConaLookupStep, ConaSnapshot } from './conaTypes';

const PAD = 8;
/** The level labels' column ("L12"). */
const LABEL_W = 30;
const BAR_H = 20;
const CELL_H = 20;
const ROW_H = 27;
const GAP = 8;
/** Below this width the labels shorten (a phone). */
const NARROW = 480;
const FONT_MARK = '600 10px system-ui, -apple-system, "Segoe UI", sans-serif';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A cell slot on the canvas: its level and slot, its box, and the cell in it (null: empty). */
export interface SlotBox extends Box {
  level: number;
  slot: number;
  cell: ConaCell | null;
}

export interface StructureLayout {
  width: number;
  /** The active and the frozen buffer's bars (the whole B each) and how much of each is filled. */
  buffers: Array<Box & { fillW: number }>;
  levelsTop: number;
  /** Every slot of every level, level by level (slots 0, 1, 2 = shadow). */
  slots: SlotBox[];
  height: number;
}

/** The levels drawn: the snapshot's, at least as many as hold a cell. */
export function levelCount(sn: ConaSnapshot): number {
  return Math.max(sn.levels, ...sn.cells.map((c) => c.level), 0);
}

/** A level's cell width: log-scaled from a third of the widest (level 1) to the column's width (the last level). */
export function cellWidth(level: number, levels: number, columnW: number): number {
  const min = Math.max(24, columnW * 0.3);
  if (levels <= 1) return columnW;
  return min + ((columnW - min) * (level - 1)) / (levels - 1);
}

export function structureLayout(sn: ConaSnapshot, width: number): StructureLayout {
  const barW = width - 2 * PAD;
  let y = 22;
  const buffers = ['active', 'frozen'].map((role) => {
    const b = sn.buffers.find((x) => x.role === role);
    const fill = sn.buffer_capacity > 0 && b ? Math.min(1, b.entries / sn.buffer_capacity) : 0;
    const box = { x: PAD, y: y + 16, w: barW, h: BAR_H, fillW: barW * fill };
    y += 16 + BAR_H + 10;
    return box;
  });
  const levelsTop = y + 20;
  const levels = levelCount(sn);
  const x0 = PAD + LABEL_W;
  const columnW = (width - x0 - PAD - 2 * GAP) / 3;
  const slots: SlotBox[] = [];
  for (let level = 1; level <= levels; level++) {
    const w = cellWidth(level, levels, columnW);
    const top = levelsTop + 16 + (level - 1) * ROW_H;
    for (let slot = 0; slot < 3; slot++) {
      const cell = sn.cells.find((c) => c.level === level && c.slot === slot) ?? null;
      slots.push({ level, slot, cell, x: x0 + slot * (columnW + GAP), y: top, w, h: CELL_H });
    }
  }
  const height = levelsTop + 16 + Math.max(1, levels) * ROW_H + 8;
  return { width, buffers, levelsTop, slots, height };
}

/** The slot under a point, or null (for hover). */
export function slotAt(layout: StructureLayout, x: number, y: number): SlotBox | null {
  return layout.slots.find((s) => x >= s.x && x <= s.x + s.w && y >= s.y && y <= s.y + s.h) ?? null;
}

/** How a lookup step is drawn. A read of another key where the cell has no fragments (the last level) is no filter's false positive: it is the read that level always costs. */
export function stepStyle(s: ConaLookupStep): StepStyle {
  if (s.outcome === 1) return STEP_STYLES.found;
  if (s.outcome === 3) return STEP_STYLES.deleted;
  if (s.outcome === 2 && s.fragment !== -1) return STEP_STYLES.falsePositive;
  return s.flash_read ? STEP_STYLES.readMiss : STEP_STYLES.passed;
}

/** The cells a lookup passed, by creation order (-1: a buffer, or a slot empty now). */
export function lookupCells(sn: ConaSnapshot): number[] {
  return (sn.last_lookup?.steps ?? []).map((s) => (s.level === 0 ? -1 : sn.cells.find((c) => c.level === s.level && c.slot === s.slot)?.seq ?? -1));
}

/** Whether the cells a lookup passed (`cells`, from lookupCells when it was made) are no longer where it found them. */
export function lookupStale(sn: ConaSnapshot, cells: readonly number[]): boolean {
  const now = lookupCells(sn);
  return now.length !== cells.length || now.some((seq, i) => seq !== cells[i]);
}

/** Where a lookup step's marker goes: at its rank along the buffer's bar or the cell. */
export function stepPoint(layout: StructureLayout, sn: ConaSnapshot, s: ConaLookupStep): [number, number] | null {
  const along = (x: number, w: number, rank: number, n: number) => x + Math.min(w - 7, Math.max(7, n > 0 ? ((rank + 0.5) / n) * w : 7));
  if (s.level === 0) {
    const b = layout.buffers[s.slot === 1 ? 1 : 0];
    if (!b) return null;
    const entries = sn.buffers.find((x) => x.role === (s.slot === 1 ? 'frozen' : 'active'))?.entries ?? 0;
    const prefix = sn.last_lookup?.prefix;
    // At the key's own prefix when the session gives it (on the same axis as the key ticks), else at the search's position.
    if (prefix !== undefined && b.fillW >= 14) return [b.x + Math.min(b.fillW - 7, Math.max(7, (prefix / 65536) * b.fillW)), b.y + b.h / 2];
    return [along(b.x, Math.max(14, b.fillW), s.rank, entries), b.y + b.h / 2];
  }
  const box = layout.slots.find((x) => x.level === s.level && x.slot === s.slot);
  if (!box) return null;
  return [along(box.x, box.w, s.rank, box.cell?.entries ?? 0), box.y + box.h / 2];
}

/** The levels that flipped within the last `recentNs` of virtual time, each with how fresh (1 just now … 0 at `recentNs` ago). */
export function recentFlips(sn: ConaSnapshot, recentNs: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const e of sn.events) {
    if (e.kind !== 'flip' || e.t_ns < sn.t_ns - recentNs) continue;
    const fresh = recentNs > 0 ? Math.min(1, Math.max(0, 1 - (sn.t_ns - e.t_ns) / recentNs)) : 1;
    out.set(e.level, Math.max(out.get(e.level) ?? 0, fresh));
  }
  return out;
}

function buffers(items: SceneItem[], sn: ConaSnapshot, layout: StructureLayout): void {
  const narrow = layout.width < NARROW;
  items.push({ t: 'text', x: PAD, y: 14, text: narrow ? `Buffers: B = ${fmt(sn.buffer_capacity)} entries each` : `Insertion buffers: B = ${fmt(sn.buffer_capacity)} entries each, searched first`, font: FONT_BOLD });
  (['active', 'frozen'] as const).forEach((role, i) => {
    const box = layout.buffers[i]!;
    const b = sn.buffers.find((x) => x.role === role);
    const entries = b?.entries ?? 0;
    const pct = sn.buffer_capacity > 0 ? Math.round((100 * entries) / sn.buffer_capacity) : 0;
    const waiting = role === 'frozen' && b?.waiting === true;
    const name = waiting ? 'frozen, waiting for a level-1 slot' : role === 'active' ? (narrow ? 'active' : 'active (takes the puts)') : (narrow ? 'frozen' : 'frozen (full: induced into level 1)');
    const text = waiting && narrow ? 'frozen, full: waits for an L1 slot' : `${name}: ${fmt(entries)} / ${fmt(sn.buffer_capacity)} (${pct}%)`;
    items.push({ t: 'text', x: box.x, y: box.y - 4, text,
      font: waiting ? FONT_BOLD : FONT_SMALL, ...(waiting ? { fill: CONA.waiting } : {}) });
    items.push({ t: 'rect', x: box.x, y: box.y, w: box.w, h: box.h, fill: CONA.track, stroke: CONA.empty, tag: `buffer-${role}` });
    if (box.fillW > 0) items.push({ t: 'rect', x: box.x, y: box.y, w: box.fillW, h: box.h, fill: CONA.buffer, tag: `fill-${role}` });
    const keys = b?.keys ?? [];
    if (keys.length > 0 && box.fillW > 0) {
      const xy: number[] = [];
      for (const k of keys) {
        const x = box.x + (Math.min(65535, Math.max(0, k)) / 65536) * box.fillW;
        xy.push(x, box.y + 4, x, box.y + box.h - 4);
      }
      items.push({ t: 'segments', xy, stroke: CONA.bufferTick, lw: 1, tag: `keys-${role}` });
    }
    if (waiting) items.push({ t: 'rect', x: box.x, y: box.y, w: box.w, h: box.h, stroke: CONA.waiting, lw: 2, dash: [6, 3], tag: 'waiting' });
  });
}

/** `flipped`: how fresh the level's flip is (0: none recent); its outline thins as the flip ages. */
function cellItems(items: SceneItem[], s: SlotBox, flipped: number): void {
  const c = s.cell;
  const shadow = s.slot === 2 || (c !== null && !c.visible);
  if (!c) {
    items.push({ t: 'rect', x: s.x, y: s.y, w: s.w, h: s.h, stroke: CONA.empty, dash: [3, 3], tag: `empty-L${s.level}-${s.slot}` });
    return;
  }
  const tag = `L${s.level}-${s.slot}`;
  const filled = shadow ? c.merged : c.entries;
  const frac = c.capacity > 0 ? Math.min(1, filled / c.capacity) : 0;
  // A cell already merged into a completed shadow below still serves reads until the flip: drawn paler.
  const colour = shadow ? CONA.shadow : c.consumed ? CONA.consumed : CONA.cell;
  items.push({ t: 'rect', x: s.x, y: s.y, w: s.w, h: s.h, fill: '#ffffff' });
  if (frac > 0) items.push({ t: 'rect', x: s.x, y: s.y, w: s.w * frac, h: s.h, fill: colour, tag: `fill-${tag}` });
  const flip = flipped > 0 && !shadow;
  items.push({ t: 'rect', x: s.x, y: s.y, w: s.w, h: s.h, stroke: flip ? CONA.flip : colour, lw: flip ? 2 + 3 * flipped : 1.5,
    ...(shadow ? { dash: [5, 3] } : {}), tag: `cell-${tag}` });
  const text = shadow ? (shadowDone(c) ? 'done' : `${Math.round(frac * 100)}%`) : fmt(c.entries);
  if (text.length * 6.2 + 6 <= s.w) {
    const inside = frac * s.w >= s.w / 2 + (text.length * 6.2) / 2;
    items.push({ t: 'text', x: s.x + s.w / 2, y: s.y + s.h / 2 + 4, text, font: FONT_SMALL, align: 'center',
      fill: inside ? (shadow ? '#000000' : '#ffffff') : CONA.ink });
  }
}

function levels(items: SceneItem[], sn: ConaSnapshot, layout: StructureLayout, recentNs: number): void {
  const top = layout.levelsTop;
  const n = levelCount(sn);
  const narrow = layout.width < NARROW;
  const title = n > 0 ? (narrow ? `Levels on flash (${n})` : `Levels on flash (${n}): newest level 1 at the top`)
    : narrow ? 'Levels: none yet (an induce makes L1)' : 'Levels on flash: none yet (the first induce makes level 1)';
  items.push({ t: 'text', x: PAD, y: top, text: title, font: FONT_BOLD });
  const first = layout.slots.slice(0, 3);
  const heads = ['slot 0', 'slot 1', 'shadow'];
  first.forEach((s, i) => items.push({ t: 'text', x: s.x, y: top + 13, text: heads[i]!, font: FONT_SMALL, fill: CONA.axis }));
  const flips = recentFlips(sn, recentNs);
  for (let level = 1; level <= n; level++) {
    const row = layout.slots.filter((s) => s.level === level);
    const y = row[0]!.y;
    items.push({ t: 'text', x: PAD, y: y + CELL_H / 2 + 4, text: `L${level}`, font: FONT_BOLD });
    for (const s of row) cellItems(items, s, flips.get(level) ?? 0);
    // "flipped" where there is room between slot 1 and the shadow column (the outline says it anyway).
    const after = row[1]!.x + row[1]!.w + 4;
    if (flips.has(level) && row[2]!.x - after >= 50) {
      items.push({ t: 'text', x: after, y: y + CELL_H / 2 + 4, text: 'flipped', font: FONT_BOLD, fill: CONA.flip });
    }
  }
  // The merge in progress: level L's two cells stream into level L+1's shadow.
  const m = sn.merge;
  if (m.active && m.level >= 1) {
    const a = layout.slots.find((s) => s.level === m.level && s.slot === 0);
    const b = layout.slots.find((s) => s.level === m.level && s.slot === 1);
    const to = layout.slots.find((s) => s.level === m.level + 1 && s.slot === 2);
    if (a && b && to) {
      const x1 = b.x + b.w / 2;
      const y1 = b.y + b.h;
      const x2 = to.x + Math.min(to.w / 2, 14);
      const y2 = to.y;
      const mid = (y1 + y2) / 2;
      items.push({ t: 'path', points: [[a.x + a.w / 2, y1], [a.x + a.w / 2, mid], [x2, mid], [x2, y2]], stroke: CONA.shadow, lw: 2 });
      items.push({ t: 'line', x1: x1, y1, x2: x1, y2: mid, stroke: CONA.shadow, lw: 2 });
      items.push({ t: 'path', points: [[x2 - 4, y2 - 5], [x2, y2], [x2 + 4, y2 - 5]], stroke: CONA.shadow, lw: 2 });
    }
  }
}

function lookup(items: SceneItem[], sn: ConaSnapshot, layout: StructureLayout, stale: boolean): void {
  const l = sn.last_lookup;
  if (!l || l.steps.length === 0) return;
  const points = l.steps.map((s) => stepPoint(layout, sn, s));
  const path = points.filter((p): p is [number, number] => p !== null);
  // Once the cells it passed have merged away, the path is a faded, dashed memory.
  if (path.length > 1) items.push({ t: 'path', points: path, stroke: stale ? CONA.empty : CONA.path, lw: 2, ...(stale ? { dash: [4, 3] } : {}) });
  l.steps.forEach((s, i) => {
    const p = points[i];
    if (!p) return;
    const st = stale ? STEP_STYLES.passed : stepStyle(s);
    items.push({ t: 'circle', cx: p[0], cy: p[1], r: 7, fill: st.fill, stroke: st === STEP_STYLES.passed ? (stale ? CONA.empty : st.stroke) : CONA.ink, lw: 1.5, tag: `step-${i + 1}` });
    items.push({ t: 'text', x: p[0], y: p[1] + 3.5, text: String(i + 1), font: FONT_MARK, align: 'center', fill: stale ? CONA.axis : st.ink });
    // A read says where it was served from: the page cache, or the flash device.
    if (s.flash_read && !stale) {
      const text = layout.width < NARROW ? (s.cache_hit ? 'cache' : 'flash') : s.cache_hit ? 'read: page cache' : 'read: flash';
      const w = text.length * 5.6 + 6;
      const x = p[0] + 10 + w <= layout.width ? p[0] + 10 : p[0] - 10 - w;
      items.push({ t: 'rect', x, y: p[1] - 7, w, h: 14, fill: '#ffffff', stroke: CONA.ink, lw: 0.5, tag: `read-${i + 1}` });
      items.push({ t: 'text', x: x + 3, y: p[1] + 3.5, text, font: FONT_MARK, fill: CONA.ink });
    }
  });
}

export interface StructureOptions {
  /** A flip stays outlined for this long of virtual time. */
  recentNs: number;
  /** The slot picked by the pointer or the keyboard: ringed. */
  selected?: { level: number; slot: number } | null;
  /** The structure has changed under the last lookup since it was made: its path is drawn faded. */
  staleLookup?: boolean;
}

export function structureScene(sn: ConaSnapshot, width: number, opts: StructureOptions): Scene {
  const layout = structureLayout(sn, width);
  const items: SceneItem[] = [];
  buffers(items, sn, layout);
  levels(items, sn, layout, opts.recentNs);
  lookup(items, sn, layout, opts.staleLookup ?? false);
  const sel = opts.selected ? layout.slots.find((s) => s.level === opts.selected!.level && s.slot === opts.selected!.slot) : undefined;
  if (sel) items.push({ t: 'rect', x: sel.x - 3, y: sel.y - 3, w: sel.w + 6, h: sel.h + 6, stroke: CONA.ink, lw: 2, tag: 'selected' });
  if (sn.crashed) {
    items.push({ t: 'rect', x: 0, y: 0, w: width, h: layout.height, fill: 'rgba(255,255,255,0.7)' });
    const narrow = width < NARROW;
    const lines = narrow ? ['Crashed: the DRAM is gone', '(buffers, tries, fragments).', 'Recover reopens the store', 'from its manifest.']
      : ['Crashed: the buffers, tries and fragments in DRAM are gone.', 'Recover to reopen the store from its manifest.'];
    const y0 = layout.height / 2 - (lines.length * 18) / 2;
    const boxW = Math.min(width - 16, narrow ? 240 : 440);
    items.push({ t: 'rect', x: (width - boxW) / 2, y: y0 - 6, w: boxW, h: lines.length * 18 + 12, fill: '#ffffff', stroke: CONA.waiting, lw: 2, tag: 'crashed' });
    lines.forEach((text, i) => items.push({ t: 'text', x: width / 2, y: y0 + 13 + i * 18, text, font: FONT_BOLD, align: 'center', fill: CONA.waiting }));
  }
  return { width, height: layout.height, items };
}

/**
 * The live flash view: every erase block as a tile of page cells (free, valid, invalid),
 * grouped by chip, each labelled with its erase count and its role (open for host writes,
 * open for collector copies, the collector's victim). Collector page copies fly from their
 * source page to their destination page and fade; erased blocks flash.
 *
 * Three parts, all deterministic: flashLayout places blocks and pages (a pure function of the
 * geometry); FlashAnimator turns each snapshot's `recent` events into marks whose progress
 * depends only on the wall times passed in (view state, never model state); renderFlashView
 * draws one frame with D3 and touches only the blocks whose pages, role or wear changed.
 */
import * as d3 from 'd3';
import type { FlashBlockRole, FlashSnapshot } from './deviceTypes';
import { FLASH_COLOURS } from './devicePalette';

export const FLASH_W = 960;
const MARGIN = 16;
const MAX_H = 700;
const PANEL_GAP = 14;
const PANEL_PAD = 10;
const CHIP_LABEL_H = 26;

/** Where everything goes, for one geometry. */
export interface FlashLayout {
  width: number;
  height: number;
  /** Side of one page cell, in view units. */
  cell: number;
  /** Page cells per tile row and tile rows. */
  cols: number;
  rows: number;
  tileW: number;
  tileH: number;
  /** Height of the label line under a tile (font size = labelH − 4). */
  labelH: number;
  /** Top-left corner of each block's tile, by block id. */
  tiles: Map<number, { x: number; y: number }>;
  chips: Array<{ chip: number; x: number; y: number; w: number; h: number }>;
  /** The legend's entries and where each goes. */
  legend: Array<LegendItem & { x: number; y: number }>;
}

/** Page cells per tile row: a power of two near √pages, so tiles are square-ish and even. */
/**
 * The spare the FTL keeps, from the configured value: "25% spare + each chip's reserve"
 * (page-mapped: overprovision over the logical pages, beyond the blocks each chip keeps for its
 * collector), or the share of pages the block-mapped FTL keeps for update and erase blocks.
 */
export function spareText(snap: Pick<FlashSnapshot, 'overprovision' | 'logical_pages' | 'blocks' | 'pages_per_block'>): string {
  if (snap.overprovision !== null && snap.overprovision !== undefined) return `${Math.round(snap.overprovision * 100)}% spare + each chip's reserve`;
  const physical = snap.blocks.length * snap.pages_per_block;
  const kept = physical > 0 ? Math.round((1 - snap.logical_pages / physical) * 100) : 0;
  return `${kept}% of pages kept for update and erase blocks`;
}

export function tileColumns(pagesPerBlock: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, pagesPerBlock)) / 2);
}

function chipsOf(snap: Pick<FlashSnapshot, 'blocks'>): Map<number, number[]> {
  const byChip = new Map<number, number[]>();
  for (const b of snap.blocks) {
    const list = byChip.get(b.chip);
    if (list) list.push(b.id);
    else byChip.set(b.chip, [b.id]);
  }
  return new Map([...byChip.entries()].sort((a, b) => a[0] - b[0]));
}

/**
 * Lays the chips out as panels flowing left to right, each holding its blocks in rows, with
 * the largest page cell (at most 40 units) that keeps the view within MAX_H.
 */
export function flashLayout(snap: Pick<FlashSnapshot, 'blocks' | 'pages_per_block' | 'ftl'>): FlashLayout {
  const legend = legendLayout(snap.ftl);
  const HEADER_H = legend.bottom + 10;
  const byChip = chipsOf(snap);
  const nChips = Math.max(1, byChip.size);
  const perChip = Math.max(1, ...[...byChip.values()].map((l) => l.length));
  const ppb = snap.pages_per_block;
  const cols = tileColumns(ppb);
  const rows = Math.ceil(ppb / cols);
  const inner = FLASH_W - 2 * MARGIN;

  type Choice = { cell: number; perRow: number; panelsPerRow: number; panelW: number; panelH: number; labelH: number; height: number };
  let best: Choice | null = null;
  for (let cell = 40; cell >= 4 && !best; cell--) {
    const tileW = cols * cell;
    const tileH = rows * cell;
  const labelH = Math.max(19, Math.min(22, Math.round(tileW / 3.5) + 4));
    const gapX = Math.max(10, Math.round(cell * 0.8));
    for (let p = 1; p <= nChips; p++) {
      const panelW = (inner - (p - 1) * PANEL_GAP) / p;
      const perRow = Math.floor((panelW - 2 * PANEL_PAD + gapX) / (tileW + gapX));
      if (perRow < 1) break;
      const blockRows = Math.ceil(perChip / perRow);
      const panelH = CHIP_LABEL_H + blockRows * (tileH + labelH + 6) + PANEL_PAD;
      const height = HEADER_H + Math.ceil(nChips / p) * (panelH + PANEL_GAP) + MARGIN / 2;
      if (height <= MAX_H && (!best || height < best.height)) best = { cell, perRow, panelsPerRow: p, panelW, panelH, labelH, height };
    }
  }
  // Nothing fits (more blocks than the bounds allow): the smallest cell, one panel per row.
  best ??= (() => {
    const cell = 4;
    const perRow = Math.max(1, Math.floor((inner - 2 * PANEL_PAD + 10) / (cols * cell + 10)));
    const panelH = CHIP_LABEL_H + Math.ceil(perChip / perRow) * (rows * cell + 25) + PANEL_PAD;
    return { cell, perRow, panelsPerRow: 1, panelW: inner, panelH, labelH: 19, height: HEADER_H + nChips * (panelH + PANEL_GAP) };
  })();

  const { cell, perRow, panelsPerRow, panelW, panelH, labelH } = best;
  const tileW = cols * cell;
  const tileH = rows * cell;
  const gapX = perRow > 1 ? Math.min(3 * cell, (panelW - 2 * PANEL_PAD - perRow * tileW) / (perRow - 1)) : 0;
  const tiles = new Map<number, { x: number; y: number }>();
  const chips: FlashLayout['chips'] = [];
  [...byChip.entries()].forEach(([chip, ids], i) => {
    const x = MARGIN + (i % panelsPerRow) * (panelW + PANEL_GAP);
    const y = HEADER_H + Math.floor(i / panelsPerRow) * (panelH + PANEL_GAP);
    chips.push({ chip, x, y, w: panelW, h: panelH });
    ids.forEach((id, j) => {
      tiles.set(id, {
        x: x + PANEL_PAD + (j % perRow) * (tileW + gapX),
        y: y + CHIP_LABEL_H + Math.floor(j / perRow) * (tileH + labelH + 6),
      });
    });
  });
  const height = Math.ceil(Math.max(...chips.map((c) => c.y + c.h), HEADER_H) + MARGIN / 2);
  return { width: FLASH_W, height, cell, cols, rows, tileW, tileH, labelH, tiles, chips, legend: legend.items };
}

/** The centre of page `page` of block `block` (undefined for a block not in the layout). */
export function pageCentre(layout: FlashLayout, block: number, page: number): { x: number; y: number } | undefined {
  const t = layout.tiles.get(block);
  if (!t) return undefined;
  return {
    x: t.x + (page % layout.cols) * layout.cell + layout.cell / 2,
    y: t.y + Math.floor(page / layout.cols) * layout.cell + layout.cell / 2,
  };
}

/** A collector copy in flight: from its source page to its destination page. */
export interface MoveMark {
  key: string;
  from: { x: number; y: number };
  to: { x: number; y: number };
  /** 0 … 1: where the marker is along the line. */
  progress: number;
  opacity: number;
}

export interface FlashFrame {
  layout: FlashLayout;
  moves: MoveMark[];
  /** Blocks erased recently and how strongly they still flash (1 … 0). */
  flashes: Array<{ block: number; opacity: number }>;
  /** Host page programs shown briefly (a ring on the page). */
  writes: Array<{ key: string; x: number; y: number; opacity: number }>;
}

/** Wall milliseconds a copy takes to fly, an erase to fade, a host write to fade. */
export const MOVE_MS = 1100;
export const FLASH_MS = 700;
export const WRITE_MS = 500;
/** At most this many copies, erases and host writes in flight (the newest are kept). */
const MAX_MOVES = 32;
const MAX_FLASHES = 6;
/** The trail behind a copy's marker, as a fraction of its path. */
const TRAIL = 0.35;
const MAX_WRITES = 48;

interface Pending<T> {
  at: number;
  seq: number;
  item: T;
}

/**
 * Accumulates each snapshot's `recent` events into marks that age with the wall time passed
 * in. Feed it every snapshot taken from the session (their `recent` lists drain per call).
 */
export class FlashAnimator {
  private moves: Array<Pending<[number, number, number, number]>> = [];
  private erased: Array<Pending<number>> = [];
  private writes: Array<Pending<[number, number]>> = [];
  private seq = 0;
  private layout: FlashLayout | null = null;
  private layoutKey = '';

  /** Clears every mark (after a reset or a new session). */
  reset(): void {
    this.moves = [];
    this.erased = [];
    this.writes = [];
  }

  /** The layout for this snapshot's geometry (recomputed only when it changes). */
  layoutFor(snap: FlashSnapshot): FlashLayout {
    const key = `${snap.ftl}|${snap.pages_per_block}|${snap.blocks.map((b) => b.chip).join(',')}`;
    if (!this.layout || key !== this.layoutKey) {
      this.layout = flashLayout(snap);
      this.layoutKey = key;
    }
    return this.layout;
  }

  /** Takes in the snapshot's new events at wall time `wallMs` and returns the frame's marks. */
  frame(snap: FlashSnapshot, wallMs: number): FlashFrame {
    const layout = this.layoutFor(snap);
    const add = <T>(list: Array<Pending<T>>, items: T[], cap: number, lifeMs: number) => {
      for (const item of items.slice(-cap)) list.push({ at: wallMs, seq: this.seq++, item });
      return list.filter((p) => wallMs - p.at < lifeMs).slice(-cap);
    };
    this.moves = add(this.moves, snap.recent.moves, MAX_MOVES, MOVE_MS);
    this.erased = add(this.erased, snap.recent.erased, MAX_FLASHES, FLASH_MS);
    this.writes = add(this.writes, snap.recent.writes, MAX_WRITES, WRITE_MS);

    const moves: MoveMark[] = [];
    for (const m of this.moves) {
      const [fb, fp, tb, tp] = m.item;
      const from = pageCentre(layout, fb, fp);
      const to = pageCentre(layout, tb, tp);
      if (!from || !to) continue;
      const f = (wallMs - m.at) / MOVE_MS;
      // The marker travels in the first 70% of the time; the line then fades.
      const progress = Math.min(1, f / 0.7);
      moves.push({ key: `m${m.seq}`, from, to, progress, opacity: f < 0.7 ? 1 : 1 - (f - 0.7) / 0.3 });
    }
    const flashes = this.erased.map((e) => ({ block: e.item, opacity: 1 - (wallMs - e.at) / FLASH_MS }));
    const writes: FlashFrame['writes'] = [];
    for (const w of this.writes) {
      const c = pageCentre(layout, w.item[0], w.item[1]);
      if (c) writes.push({ key: `w${w.seq}`, ...c, opacity: 1 - (wallMs - w.at) / WRITE_MS });
    }
    return { layout, moves, flashes, writes };
  }
}

/** Role outlines: colour, width and dash differ, and the letter under the tile names the role. */
const ROLE_STYLE: Record<FlashBlockRole | 'victim', { stroke: string; width: number; dash: string; short: string }> = {
  free: { stroke: '#aab3bf', width: 1, dash: '', short: '' },
  full: { stroke: '#7b8594', width: 1, dash: '', short: '' },
  data: { stroke: '#7b8594', width: 1, dash: '', short: '' },
  host: { stroke: FLASH_COLOURS.host, width: 3, dash: '', short: 'H' },
  update: { stroke: FLASH_COLOURS.host, width: 3, dash: '', short: 'U' },
  gc: { stroke: FLASH_COLOURS.gc, width: 3, dash: '6 3', short: 'GC' },
  erasing: { stroke: FLASH_COLOURS.erased, width: 3, dash: '', short: 'E' },
  victim: { stroke: FLASH_COLOURS.victim, width: 3.5, dash: '3 2', short: 'V' },
};

/** The collector's victim block, if it has one (null, absent or negative: none). */
function victimOf(snap: FlashSnapshot): number | null {
  const v = snap.gc.victim;
  return typeof v === 'number' && v >= 0 ? v : null;
}

function roleOf(snap: FlashSnapshot, b: FlashSnapshot['blocks'][number]): FlashBlockRole | 'victim' {
  return victimOf(snap) === b.id ? 'victim' : b.role;
}

const PAGE_FILL: Record<string, string> = { '.': FLASH_COLOURS.free, v: FLASH_COLOURS.valid, x: 'url(#flash-invalid)' };

/** Counts of free, valid and invalid pages over the whole device. */
export function pageCounts(snap: FlashSnapshot): { free: number; valid: number; invalid: number } {
  let free = 0;
  let valid = 0;
  let invalid = 0;
  for (const b of snap.blocks) {
    for (const ch of b.pages) {
      if (ch === 'v') valid++;
      else if (ch === 'x') invalid++;
      else free++;
    }
  }
  return { free, valid, invalid };
}

function fmtBytes(n: number): string {
  return n >= 1024 * 1024 ? `${n / (1024 * 1024)} MB` : n >= 1024 ? `${n / 1024} KB` : `${n} B`;
}

export interface LegendItem {
  kind: 'cell' | 'outline' | 'move' | 'flash' | 'write' | 'text';
  label: string;
  fill?: string;
  stroke?: string;
  dash?: string;
  width?: number;
  sample?: string;
}

const LEGEND_FONT = 16;
/** A generous estimate of a legend character's width (system sans at 16 units). */
const LEGEND_CHAR_W = 8.4;

function legendItems(ftl: string): LegendItem[] {
  const blockMapped = /block/.test(ftl);
  const items: LegendItem[] = [
    { kind: 'cell', label: 'free page', fill: FLASH_COLOURS.free },
    { kind: 'cell', label: 'valid page', fill: FLASH_COLOURS.valid },
    { kind: 'cell', label: 'invalid (stale) page', fill: 'url(#flash-invalid)' },
    { kind: 'write', label: 'just written by the host' },
    { kind: 'text', label: 'times erased', sample: '12' },
    blockMapped
      ? { kind: 'outline', label: 'open update block (U)', stroke: ROLE_STYLE.update.stroke, width: 3, dash: '' }
      : { kind: 'outline', label: 'open for host writes (H)', stroke: ROLE_STYLE.host.stroke, width: 3, dash: '' },
  ];
  if (!blockMapped) items.push({ kind: 'outline', label: 'open for GC copies (GC)', stroke: ROLE_STYLE.gc.stroke, width: 3, dash: ROLE_STYLE.gc.dash });
  items.push(
    { kind: 'outline', label: blockMapped ? 'being merged (V)' : 'GC victim (V)', stroke: ROLE_STYLE.victim.stroke, width: 3.5, dash: ROLE_STYLE.victim.dash },
    { kind: 'move', label: blockMapped ? 'page copy' : 'GC page copy' },
    { kind: 'flash', label: 'erasing (E), just erased' },
  );
  return items;
}

/** The legend's entries flowing in rows under the title; `bottom` is where the blocks may start. */
function legendLayout(ftl: string): { items: Array<LegendItem & { x: number; y: number }>; bottom: number } {
  const items: Array<LegendItem & { x: number; y: number }> = [];
  let x = MARGIN;
  let y = 82;
  for (const it of legendItems(ftl)) {
    const w = 28 + it.label.length * LEGEND_CHAR_W + 24;
    if (x + w > FLASH_W - MARGIN && x > MARGIN) {
      x = MARGIN;
      y += 28;
    }
    items.push({ ...it, x, y });
    x += w;
  }
  return { items, bottom: y + 22 };
}

function drawStatic(svg: d3.Selection<SVGSVGElement, unknown, null, undefined>, snap: FlashSnapshot, layout: FlashLayout): void {
  svg.selectAll('*').remove();
  svg.attr('viewBox', `0 0 ${layout.width} ${layout.height}`).attr('font-family', 'system-ui, sans-serif');
  const defs = svg.append('defs');
  const hatch = defs.append('pattern').attr('id', 'flash-invalid').attr('patternUnits', 'userSpaceOnUse')
    .attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)');
  hatch.append('rect').attr('width', 6).attr('height', 6).attr('fill', FLASH_COLOURS.invalid);
  hatch.append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6).attr('stroke', FLASH_COLOURS.invalidHatch).attr('stroke-width', 2.5);

  const s = svg.append('g').attr('class', 'static');
  s.append('rect').attr('width', layout.width).attr('height', layout.height).attr('fill', '#fbfbfd');
  s.append('text').attr('class', 'title').attr('x', MARGIN).attr('y', 32).attr('font-size', 25).attr('font-weight', 700).attr('fill', '#1a1a1a')
    .text(`Flash: ${snap.profile}, ${snap.ftl} FTL`);
  s.append('text').attr('class', 'subtitle').attr('x', MARGIN).attr('y', 60).attr('font-size', 17).attr('fill', '#444')
    .text(`${snap.blocks.length} erase blocks × ${snap.pages_per_block} pages of ${fmtBytes(snap.page_bytes)} on ${snap.chips} chip${snap.chips === 1 ? '' : 's'}` +
      ` · ${snap.logical_pages} logical pages (${spareText(snap)})`);

  const lg = s.append('g').attr('class', 'legend').attr('font-size', LEGEND_FONT).attr('fill', '#333');
  for (const it of layout.legend) {
    const g = lg.append('g').attr('transform', `translate(${it.x},${it.y})`);
    if (it.kind === 'cell') g.append('rect').attr('width', 18).attr('height', 18).attr('fill', it.fill!).attr('stroke', '#7b8594');
    else if (it.kind === 'outline') {
      g.append('rect').attr('x', 1.5).attr('y', 1.5).attr('width', 19).attr('height', 15).attr('fill', 'none')
        .attr('stroke', it.stroke!).attr('stroke-width', it.width!).attr('stroke-dasharray', it.dash || null);
    } else if (it.kind === 'move') {
      g.append('line').attr('x1', 0).attr('y1', 14).attr('x2', 16).attr('y2', 6).attr('stroke', FLASH_COLOURS.gc).attr('stroke-width', 3)
        .attr('stroke-linecap', 'round');
      g.append('circle').attr('cx', 17).attr('cy', 5.5).attr('r', 5).attr('fill', FLASH_COLOURS.gc).attr('stroke', '#fff').attr('stroke-width', 1.5);
    } else if (it.kind === 'write') {
      g.append('rect').attr('width', 18).attr('height', 18).attr('fill', FLASH_COLOURS.valid).attr('stroke', '#000').attr('stroke-width', 3);
    } else if (it.kind === 'flash') {
      g.append('rect').attr('width', 20).attr('height', 18).attr('fill', FLASH_COLOURS.erased).attr('opacity', 0.85);
    } else {
      g.append('text').attr('x', 0).attr('y', 15).attr('font-weight', 700).attr('fill', '#222').text(it.sample!);
    }
    g.append('text').attr('x', 28).attr('y', 15).text(it.label);
  }

  const chips = s.append('g').attr('class', 'chips');
  for (const c of layout.chips) {
    chips.append('rect').attr('x', c.x).attr('y', c.y).attr('width', c.w).attr('height', c.h).attr('rx', 6)
      .attr('fill', '#f0f3f7').attr('stroke', '#d3d9e1');
    chips.append('text').attr('x', c.x + PANEL_PAD).attr('y', c.y + 19).attr('font-size', 16).attr('font-weight', 600).attr('fill', '#444')
      .text(`chip ${c.chip}`);
  }
  svg.append('g').attr('class', 'blocks');
  svg.append('g').attr('class', 'flashes').attr('pointer-events', 'none');
  svg.append('g').attr('class', 'writes').attr('pointer-events', 'none');
  svg.append('g').attr('class', 'gc-moves').attr('pointer-events', 'none');
  svg.append('text').attr('class', 'gc-status').attr('x', layout.width - MARGIN).attr('y', 32).attr('text-anchor', 'end')
    .attr('font-size', 19).attr('font-weight', 600);
}

/** Draws one frame: the static parts (again when the geometry changes), blocks, then marks. */
export function renderFlashView(svgEl: SVGSVGElement, frame: FlashFrame, snap: FlashSnapshot): void {
  const svg = d3.select(svgEl);
  const { layout } = frame;
  const key = `${snap.profile}|${snap.ftl}|${snap.pages_per_block}|${snap.logical_pages}|${snap.blocks.length}|${layout.height}|${layout.cell}`;
  if (svg.attr('data-layout') !== key) {
    drawStatic(svg, snap, layout);
    svg.attr('data-layout', key);
  }

  const { cell, tileW, tileH } = layout;
  const fontSize = layout.labelH - 4;
  const blocks = svg.select<SVGGElement>('g.blocks').selectAll<SVGGElement, FlashSnapshot['blocks'][number]>('g.block')
    .data(snap.blocks, (b) => String(b.id))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'block');
      g.append('title');
      g.append('rect').attr('class', 'outline').attr('fill', '#fff');
      g.append('g').attr('class', 'pages');
      g.append('text').attr('class', 'erases').attr('font-size', fontSize).attr('fill', '#222').attr('font-weight', 600);
      g.append('text').attr('class', 'tag').attr('font-size', fontSize).attr('font-weight', 700).attr('text-anchor', 'end');
      return g;
    });
  blocks.each(function (b) {
    const role = roleOf(snap, b);
    const state = `${b.pages}|${role}|${b.erases}`;
    const g = d3.select(this);
    if (g.attr('data-state') === state) return;
    g.attr('data-state', state).attr('data-role', role).attr('data-block', b.id);
    const t = layout.tiles.get(b.id) ?? { x: -1000, y: -1000 };
    g.attr('transform', `translate(${t.x},${t.y})`);
    const st = ROLE_STYLE[role];
    g.select('title').text(`block ${b.id} (chip ${b.chip}): ${role === 'victim' ? 'GC victim' : b.role}, ${b.valid} valid pages, erased ${b.erases}×`);
    g.select('rect.outline').attr('x', -2.5).attr('y', -2.5).attr('width', tileW + 5).attr('height', tileH + 5).attr('rx', 2)
      .attr('stroke', st.stroke).attr('stroke-width', st.width).attr('stroke-dasharray', st.dash || null);
    g.select<SVGGElement>('g.pages').selectAll<SVGRectElement, string>('rect')
      .data(Array.from(b.pages))
      .join('rect')
      .attr('class', 'page')
      .attr('x', (_, i) => (i % layout.cols) * cell + 0.5)
      .attr('y', (_, i) => Math.floor(i / layout.cols) * cell + 0.5)
      .attr('width', cell - 1)
      .attr('height', cell - 1)
      .attr('data-s', (c) => c)
      .attr('fill', (c) => PAGE_FILL[c] ?? FLASH_COLOURS.free)
      .attr('stroke', (c) => (c === '.' ? '#c5ccd6' : 'none'))
      .attr('stroke-width', 0.6);
    g.select('text.erases').attr('x', 0).attr('y', tileH + fontSize + 1).text(String(b.erases));
    g.select('text.tag').attr('x', tileW).attr('y', tileH + fontSize + 1).attr('fill', st.stroke)
      .text(st.short);
  });

  svg.select<SVGGElement>('g.flashes').selectAll<SVGRectElement, FlashFrame['flashes'][number]>('rect')
    .data(frame.flashes.filter((f) => layout.tiles.has(f.block)))
    .join('rect')
    .attr('class', 'erase-flash')
    .attr('x', (f) => layout.tiles.get(f.block)!.x - 4)
    .attr('y', (f) => layout.tiles.get(f.block)!.y - 4)
    .attr('width', tileW + 8)
    .attr('height', tileH + 8)
    .attr('rx', 3)
    .attr('fill', FLASH_COLOURS.erased)
    .attr('opacity', (f) => (0.7 * Math.max(0, f.opacity)).toFixed(2));

  svg.select<SVGGElement>('g.writes').selectAll<SVGRectElement, FlashFrame['writes'][number]>('rect')
    .data(frame.writes, (w) => w.key)
    .join('rect')
    .attr('class', 'host-write')
    .attr('x', (w) => w.x - cell / 2)
    .attr('y', (w) => w.y - cell / 2)
    .attr('width', cell)
    .attr('height', cell)
    .attr('fill', 'none')
    .attr('stroke', '#000')
    .attr('stroke-width', Math.max(1.5, cell / 7))
    .attr('opacity', (w) => Math.max(0, w.opacity).toFixed(2));

  const r = Math.max(3, Math.min(7, cell * 0.42));
  const moves = svg.select<SVGGElement>('g.gc-moves').selectAll<SVGGElement, MoveMark>('g.gc-move')
    .data(frame.moves, (m) => m.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'gc-move');
      g.append('line').attr('stroke', FLASH_COLOURS.gc).attr('stroke-width', 3).attr('stroke-linecap', 'round');
      g.append('circle').attr('r', r).attr('fill', FLASH_COLOURS.gc).attr('stroke', '#fff').attr('stroke-width', 1.5);
      return g;
    });
  moves.attr('opacity', (m) => Math.max(0, m.opacity).toFixed(2));
  // A comet: the marker with a short trail behind it, so many copies at once stay legible.
  const tail = (m: MoveMark) => Math.max(0, m.progress - TRAIL);
  moves.select('line')
    .attr('x1', (m) => (m.from.x + (m.to.x - m.from.x) * tail(m)).toFixed(1))
    .attr('y1', (m) => (m.from.y + (m.to.y - m.from.y) * tail(m)).toFixed(1))
    .attr('x2', (m) => (m.from.x + (m.to.x - m.from.x) * m.progress).toFixed(1))
    .attr('y2', (m) => (m.from.y + (m.to.y - m.from.y) * m.progress).toFixed(1));
  moves.select('circle')
    .attr('cx', (m) => (m.from.x + (m.to.x - m.from.x) * m.progress).toFixed(1))
    .attr('cy', (m) => (m.from.y + (m.to.y - m.from.y) * m.progress).toFixed(1));

  const victim = victimOf(snap);
  svg.select('text.gc-status')
    .attr('fill', snap.gc.active ? FLASH_COLOURS.victim : '#555')
    .text(snap.gc.active ? `GC running${victim !== null ? ` · victim block ${victim}` : ''}` : 'GC idle');
  const counts = pageCounts(snap);
  svg.attr('data-invalid', counts.invalid).attr('data-valid', counts.valid).attr('data-free', counts.free)
    .attr('data-moves', frame.moves.length);
}

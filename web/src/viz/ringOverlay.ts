/**
 * The ring view's moving layer, drawn over the static one every frame at `nowNs`: the joins'
 * copy progress, the focused VID's range and the chains it sits in (one track each, its role
 * marked H head, M mid, T tail), the neighbourhood strip below the ring (the VIDs around the
 * focus in ring order, each chain a row, named in words), and the messages as dots moving from
 * sender to receiver (a back-end at its VID in the chain of the message's position, else its
 * first VID; a front-end in the centre). It costs O(messages × (R + log VIDs) + joins + R²):
 * nothing per VID.
 */
import type { FawnkvJoin, FawnkvMessage } from '../model/ringTypes';
import { FONT, FONT_BOLD, FONT_MONO, FONT_SMALL, type Scene, type SceneItem } from './canvasScene';
import { arcItem, endpointAt, frontEndPoint, LINE, OVERLAY_LINES, pointAt, stripSlots, stripWindow, type RingLayout } from './ringLayout';
import { chainsOf, rangeOf, rangeWidth, vidCount, vidName, type ChainSlot, type RingIndex } from './ringModel';
import { dots, INK, MUTED, nodeColour, nodeFill } from './ringPalette';
import { describeSlot, fmtRange, fmtShare, ROLE_LETTER, ROLE_TEXT } from './ringText';

/** Messages drawn at most per frame. */
const MAX_DOTS = 2000;

/** A message's place at `nowNs`: linear from sender to receiver; at the receiver once arrived (queued). */
export function messagePoint(a: [number, number], b: [number, number], m: Pick<FawnkvMessage, 'sent_ns' | 'arrive_ns'>, nowNs: number): [number, number] {
  const span = m.arrive_ns - m.sent_ns;
  const t = span > 0 ? Math.min(1, Math.max(0, (nowNs - m.sent_ns) / span)) : 1;
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

export interface RingOverlayOptions {
  /** The focused VID's index, or null. */
  focus: number | null;
  pinned: boolean;
  nowNs: number;
  messages: FawnkvMessage[];
  joins: FawnkvJoin[];
  frontEnds: Array<{ id: number; start: number; end: number }>;
}

/** The moving layer: joins' progress, the focused VID's range and chains, the strip, messages. */
export function ringOverlayScene(ring: RingIndex, L: RingLayout, o: RingOverlayOptions): Scene {
  const items: SceneItem[] = [];
  const { vids } = ring;
  const n = vidCount(vids);

  // Joins: the range dashed on the join track, the copied part over it in the joiner's colour (dark once copied).
  for (const j of o.joins) {
    items.push(arcItem(L, j.start, j.end, L.rJoin, INK, 1.5, 3, `join ${j.vid}`, [2, 2]));
    const frac = j.total_bytes > 0 ? Math.min(1, j.copied_bytes / j.total_bytes) : j.phase === 'precopy' ? 0 : 1;
    if (frac > 0) {
      const done = j.start + rangeWidth(j.start, j.end) * frac;
      items.push(arcItem(L, j.start, done - Math.floor(done), L.rJoin, j.phase === 'precopy' ? nodeColour(j.node) : INK, 5, 3));
    }
  }

  const focus = o.focus !== null && o.focus >= 0 && o.focus < n ? o.focus : null;
  const slots = focus === null ? [] : chainsOf(ring, focus);
  if (focus !== null) {
    const p = vids.pos[focus]!;
    const { start, end } = rangeOf(vids, focus);
    const [x1, y1] = pointAt(L, p, L.rHub + 4);
    const [x2, y2] = pointAt(L, p, L.rFeInner);
    items.push({ t: 'line', x1, y1, x2, y2, stroke: INK, lw: 1, dash: o.pinned ? undefined : [3, 3] });
    items.push(arcItem(L, start, end, L.rBandOuter + 1.5, INK, 3, 4, 'focused range'));
    items.push(arcItem(L, start, end, L.rBandInner - 1.5, INK, 3, 4));
    slots.slice(0, L.strip.rows).forEach((s, k) => chainTrack(items, ring, L, s, L.rTrack0 - k * L.trackStep, focus));
  }
  strip(items, ring, L, focus, slots);

  // Messages, one batch per kind (heartbeats underneath), then the front-ends over them.
  let drawn = 0;
  const byKind = new Map<FawnkvMessage['kind'], number[]>([['heartbeat', []]]);
  for (const m of o.messages) {
    if (drawn >= MAX_DOTS) break;
    const a = endpointAt(ring, L, m.from, m.pos, o.frontEnds);
    const b = endpointAt(ring, L, m.to, m.pos, o.frontEnds);
    if (!a || !b) continue;
    let xy = byKind.get(m.kind);
    if (!xy) byKind.set(m.kind, (xy = []));
    xy.push(...messagePoint(a, b, m, o.nowNs));
    drawn++;
  }
  for (const [kind, xy] of byKind) if (xy.length > 0) items.push(dots(xy, kind));
  for (const f of o.frontEnds) {
    const [x, y] = frontEndPoint(L, f, o.frontEnds.length);
    items.push({ t: 'rect', x: x - 17, y: y - 9, w: 34, h: 18, fill: INK, stroke: '#ffffff', lw: 1, tag: `FE ${f.id}` });
    items.push({ t: 'text', x, y: y + 4, text: `FE ${f.id}`, font: FONT_SMALL, fill: '#ffffff', align: 'center' });
  }

  // The legend's moving part: messages in flight and the joins.
  let y = L.legendEnd;
  const x = L.legend.x;
  items.push({ t: 'text', x, y, text: `${o.messages.length} message${o.messages.length === 1 ? '' : 's'} in flight or queued${drawn < o.messages.length ? ` (${drawn} drawn)` : ''}`, font: FONT_SMALL });
  y += LINE;
  const room = Math.max(1, Math.min(OVERLAY_LINES - 2, Math.floor((L.legend.bottom - y) / LINE) - 1));
  if (o.joins.length > 0) {
    items.push({ t: 'text', x, y, text: `Joins (${o.joins.length})`, font: FONT_BOLD });
    y += LINE;
    const shown = o.joins.length > room ? room - 1 : room;
    for (const j of o.joins.slice(0, shown)) {
      const pct = j.total_bytes > 0 ? ` ${Math.round((100 * j.copied_bytes) / j.total_bytes)}%` : '';
      items.push({ t: 'text', x, y, text: `${j.vid} ${j.role} of ${fmtRange(j.start, j.end)}: ${j.phase}${pct}`, font: FONT_SMALL });
      y += LINE;
    }
    if (o.joins.length > shown) items.push({ t: 'text', x, y, text: `… and ${o.joins.length - shown} more (see the join list)`, font: FONT_SMALL, fill: MUTED });
  }
  return { width: L.width, height: L.height, items };
}

/** One chain on its track: the range it replicates (thick), a line on to its tail, its members, and the focused VID's role. */
function chainTrack(items: SceneItem[], ring: RingIndex, L: RingLayout, s: ChainSlot, r: number, focus: number): void {
  const { vids } = ring;
  const headNode = vids.node[s.head]!;
  const tail = s.chain[s.chain.length - 1]!;
  items.push(arcItem(L, s.end, vids.pos[tail]!, r, MUTED, 1.5));
  items.push(arcItem(L, s.start, s.end, r, nodeColour(headNode), 6, 4, `chain ${vidName(vids, s.head)}`));
  for (const m of s.chain) {
    if (m === focus) continue;
    const [x, y] = pointAt(L, vids.pos[m]!, r);
    items.push({ t: 'circle', cx: x, cy: y, r: 3.5, fill: nodeColour(vids.node[m]!), stroke: INK, lw: 1 });
  }
  const [x, y] = pointAt(L, vids.pos[focus]!, r);
  items.push({ t: 'circle', cx: x, cy: y, r: 6.5, fill: INK, tag: s.role });
  items.push({ t: 'text', x, y: y + 0.5, text: ROLE_LETTER[s.role], font: FONT_SMALL, fill: '#ffffff', align: 'center', baseline: 'middle' });
}

/** The neighbourhood strip: the VIDs around the focus in ring order, and each chain as a row. */
function strip(items: SceneItem[], ring: RingIndex, L: RingLayout, focus: number | null, slots: ChainSlot[]): void {
  const { vids } = ring;
  const S = L.strip;
  items.push({ t: 'line', x1: S.x, y1: S.y, x2: S.x + S.w, y2: S.y, stroke: '#d9dee5' });
  if (focus === null) {
    const hint = S.w < 520 ? 'Tap or point at a VID to see its range and chains.' : 'Point at a VID (or focus the ring and use the arrow keys) to see the range it owns and the chains it sits in.';
    items.push({ t: 'text', x: S.x, y: S.y + 18, text: hint, font: FONT, fill: MUTED });
    return;
  }
  const { start, end } = rangeOf(vids, focus);
  const chains = `${slots.length} chain${slots.length === 1 ? '' : 's'}`;
  const owns = S.w < 520
    ? `VID ${vidName(vids, focus)}: ${fmtRange(start, end)}, ${fmtShare(rangeWidth(start, end))}; ${chains}:`
    : `VID ${vidName(vids, focus)} owns ${fmtRange(start, end)} (${fmtShare(rangeWidth(start, end))}) and sits in ${chains}:`;
  items.push({ t: 'text', x: S.x, y: S.y + 18, text: owns, font: FONT_BOLD });
  const win = stripWindow(ring, focus, slots);
  const { x0, w } = stripSlots(L, win.length);
  const slotOf = new Map(win.map((v, k) => [v, k]));
  const cxOf = (i: number) => x0 + (slotOf.get(i)! + 0.5) * w;
  const rowY = S.y + 28;
  items.push({ t: 'text', x: S.x, y: rowY + 11, text: 'ring order (one slot per VID) →', font: FONT_SMALL, fill: MUTED });
  const every = Math.max(1, Math.ceil(30 / w));
  win.forEach((v, k) => {
    items.push({ t: 'rect', x: x0 + k * w, y: rowY, w: w - 1, h: 14, fill: nodeFill(vids.node[v]!), stroke: v === focus ? INK : undefined, lw: 2 });
    items.push({ t: 'line', x1: x0 + (k + 1) * w - 1, y1: rowY - 3, x2: x0 + (k + 1) * w - 1, y2: rowY + 17, stroke: nodeColour(vids.node[v]!), lw: 2 });
    if (k % every === 0 || v === focus) items.push({ t: 'text', x: x0 + (k + 0.5) * w, y: rowY + 28, text: vidName(vids, v), font: FONT_MONO, align: 'center', fill: v === focus ? INK : MUTED });
  });
  slots.slice(0, S.rows).forEach((s, k) => {
    const y = rowY + 44 + k * 18;
    // A narrow strip names the range only: the chain is drawn beside it.
    const label = S.w < 520 ? `${ROLE_TEXT[s.role]} of ${fmtRange(s.start, s.end)}` : describeSlot(ring, s);
    items.push({ t: 'text', x: S.x, y: y + 4, text: label, font: FONT_SMALL });
    const inWin = s.chain.filter((m) => slotOf.has(m));
    if (slotOf.has(s.head)) items.push({ t: 'rect', x: x0 + slotOf.get(s.head)! * w, y: y - 5, w: w - 1, h: 10, fill: nodeColour(vids.node[s.head]!), tag: `row ${k} range` });
    if (inWin.length > 1) items.push({ t: 'line', x1: cxOf(inWin[0]!), y1: y, x2: cxOf(inWin[inWin.length - 1]!), y2: y, stroke: MUTED, lw: 1.5 });
    for (const m of inWin) {
      if (m === focus) {
        items.push({ t: 'circle', cx: cxOf(m), cy: y, r: 6.5, fill: INK });
        items.push({ t: 'text', x: cxOf(m), y: y + 0.5, text: ROLE_LETTER[s.role], font: FONT_SMALL, fill: '#ffffff', align: 'center', baseline: 'middle' });
      } else {
        items.push({ t: 'circle', cx: cxOf(m), cy: y, r: 4, fill: nodeColour(vids.node[m]!), stroke: INK, lw: 1 });
      }
    }
  });
  if (slots.length > S.rows) items.push({ t: 'text', x: S.x, y: rowY + 44 + S.rows * 18, text: `… ${slots.length - S.rows} more chains`, font: FONT_SMALL, fill: MUTED });
}

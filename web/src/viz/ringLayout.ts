/**
 * The ring view's geometry: where the ring, its bands and tracks, the neighbourhood strip, the
 * legend and the key go on a canvas of a given width; ring positions to page angles and
 * back; arcs over ranges; where front-ends and a message's endpoints sit; which VIDs the strip
 * shows; and hit-testing (the VID under a point: a binary search on position, or a strip slot).
 * 0 is at 12 o'clock and the ring runs clockwise.
 */
import type { SceneItem } from './canvasScene';
import { MESSAGE_LEGEND } from './ringPalette';
import { chainFor, chainsOf, nearestVid, rangeWidth, vidCount, type ChainSlot, type RingIndex } from './ringModel';

export const TAU = 2 * Math.PI;
/** Above this many VIDs the ticks carry no names (they would overlap). */
export const LABEL_MAX_VIDS = 36;
/** Slots the neighbourhood strip shows at most. */
const STRIP_MAX_SLOTS = 40;
const LEGEND_W = 260;
/** A legend line's height. */
export const LINE = 16;

export interface RingLayout {
  width: number;
  height: number;
  cx: number;
  cy: number;
  /** Radii, from the outside in. */
  rFeOuter: number;
  rFeInner: number;
  rJoin: number;
  rBandOuter: number;
  rBandInner: number;
  rTickInner: number;
  rLabel: number;
  /** The first chain track and the step between tracks. */
  rTrack0: number;
  trackStep: number;
  /** Where front-ends sit. */
  rHub: number;
  labels: boolean;
  strip: { x: number; y: number; w: number; h: number; slotsX: number; rows: number };
  /** Beside the ring (or under the strip when narrow): the counts, the nodes, then the overlay's lines down to `bottom`. */
  legend: { x: number; y: number; w: number; bottom: number };
  /** Under it all, full width: what the messages' colours and the marks mean. */
  key: { x: number; y: number; w: number };
  /** Where the overlay's lines of the legend start (set by ringBaseScene, below the node list). */
  legendEnd: number;
}

/** The page angle (radians, canvas convention) of a ring position: 0 at 12 o'clock, clockwise. */
export function angleOf(p: number): number {
  return p * TAU - Math.PI / 2;
}

export function pointAt(L: RingLayout, p: number, r: number): [number, number] {
  const a = angleOf(p);
  return [L.cx + r * Math.cos(a), L.cy + r * Math.sin(a)];
}

/** The ring position and distance from the centre of a point on the canvas. */
export function positionAt(L: RingLayout, x: number, y: number): { pos: number; dist: number } {
  const a = Math.atan2(y - L.cy, x - L.cx);
  let pos = (a + Math.PI / 2) / TAU;
  pos -= Math.floor(pos);
  return { pos, dist: Math.hypot(x - L.cx, y - L.cy) };
}

/** How many legend columns fit in `w` (entries are 240 px wide). */
export function columns(w: number): number {
  return Math.max(1, Math.floor(w / 240));
}

/** Lines the node list takes: every node up to 12, else a line about the palette and up to 6 nodes not up. */
export const NODE_LINES = 12;
/** Lines the overlay may use under the node list: the message count, a heading and 5 joins. */
export const OVERLAY_LINES = 7;

/**
 * Geometry for a canvas `width` wide showing `vids` VIDs of `nodes` nodes: the ring in a
 * square, the legend beside it (under the strip when narrow), the strip under the ring and the
 * key of colours and marks at the bottom.
 */
export function ringLayout(width: number, replication: number, vids: number, nodes: number): RingLayout {
  const beside = width >= 720;
  const side = Math.max(280, Math.min(600, beside ? width - LEGEND_W - 16 : width));
  const r = side / 2 - 34; // room outside the band for "FE 7"
  const labels = vids <= LABEL_MAX_VIDS;
  const rBandOuter = r - 19;
  const rBandInner = r - 37;
  const rTickInner = rBandInner - 7;
  const rTrack0 = rTickInner - (labels ? 30 : 12);
  const trackStep = 14;
  const rows = Math.max(1, replication) + 2;
  const stripH = 60 + rows * 18;
  const strip = { x: 0, y: side + 4, w: width, h: stripH, slotsX: Math.min(280, width * 0.45), rows };
  let legend: RingLayout['legend'];
  let keyY: number;
  if (beside) {
    legend = { x: side + 16, y: 10, w: width - side - 16, bottom: side };
    keyY = strip.y + stripH + 8;
  } else {
    const y = strip.y + stripH + 8;
    const nodeRows = Math.ceil(Math.min(nodes, NODE_LINES) / columns(width)) + 1;
    legend = { x: 0, y, w: width, bottom: y + (4 + nodeRows + OVERLAY_LINES) * LINE + 24 };
    keyY = legend.bottom + 8;
  }
  const cols = columns(width);
  const keyH = (2 + Math.ceil(MESSAGE_LEGEND.length / cols) + Math.ceil(4 / cols)) * LINE + 20;
  return {
    width,
    height: keyY + keyH,
    cx: side / 2,
    cy: side / 2,
    rFeOuter: r,
    rFeInner: r - 9,
    rJoin: r - 14,
    rBandOuter,
    rBandInner,
    rTickInner,
    rLabel: rTickInner - 5,
    rTrack0,
    trackStep,
    rHub: Math.max(18, Math.min(0.22 * r, rTrack0 - (rows - 1) * trackStep - 20)),
    labels,
    strip,
    legend,
    key: { x: 0, y: keyY, w: width },
    legendEnd: legend.y,
  };
}

/** The angles [a0, a1] of the ring positions (start, end] on a circle of radius r, at least `minPx` long. */
export function arcSpan(start: number, end: number, r: number, minPx = 0): [number, number] {
  let a0 = angleOf(start);
  let a1 = a0 + rangeWidth(start, end) * TAU;
  const min = minPx / r;
  if (a1 - a0 < min) {
    const mid = (a0 + a1) / 2;
    a0 = mid - min / 2;
    a1 = mid + min / 2;
  }
  return [a0, a1];
}

/** An arc over the ring positions (start, end], at least `minPx` long. */
export function arcItem(L: RingLayout, start: number, end: number, r: number, stroke: string, lw: number, minPx = 0, tag?: string, dash?: number[]): SceneItem {
  const [a0, a1] = arcSpan(start, end, r, minPx);
  return { t: 'arc', cx: L.cx, cy: L.cy, r, a0, a1, stroke, lw, ...(tag ? { tag } : {}), ...(dash ? { dash } : {}) };
}

/** Where front-end `f` of `count` sits: the centre for one, else around it towards its wedge. */
export function frontEndPoint(L: RingLayout, f: { start: number; end: number }, count: number): [number, number] {
  if (count <= 1) return [L.cx, L.cy];
  const mid = f.start + rangeWidth(f.start, f.end) / 2;
  return pointAt(L, mid - Math.floor(mid), L.rHub);
}

/** Where a message's endpoint is: a back-end at its VID in the chain of `pos` (else its first VID), a front-end in the centre. */
export function endpointAt(ring: RingIndex, L: RingLayout, who: number, pos: number, frontEnds: Array<{ start: number; end: number }>): [number, number] | null {
  if (who < 0) {
    const f = frontEnds[-1 - who];
    return f ? frontEndPoint(L, f, frontEnds.length) : [L.cx, L.cy];
  }
  const member = chainFor(ring, pos).find((i) => ring.vids.node[i] === who) ?? ring.first.get(who);
  return member === undefined ? null : pointAt(L, ring.vids.pos[member]!, L.rTickInner);
}

/** The VIDs the strip shows around `focus`: from the furthest head of its chains to the furthest tail, one more each side. */
export function stripWindow(ring: RingIndex, focus: number, slots: ChainSlot[]): number[] {
  const n = vidCount(ring.vids);
  const off = (i: number) => {
    const d = (((i - focus) % n) + n) % n;
    return d > n / 2 ? d - n : d;
  };
  let lo = 0;
  let hi = 0;
  for (const s of slots) {
    lo = Math.min(lo, off(s.head));
    for (const m of s.chain) hi = Math.max(hi, off(m));
  }
  lo = Math.max(lo - 1, -Math.floor(STRIP_MAX_SLOTS / 2));
  hi = Math.min(hi + 1, STRIP_MAX_SLOTS - 1 + lo);
  const count = Math.min(n, hi - lo + 1);
  return Array.from({ length: count }, (_, k) => (((focus + lo + k) % n) + n) % n);
}

/** The slot geometry of the strip for `count` slots. */
export function stripSlots(L: RingLayout, count: number): { x0: number; w: number } {
  const x0 = L.strip.slotsX;
  return { x0, w: Math.max(4, (L.strip.w - 8 - x0) / Math.max(1, count)) };
}

/** The VID under a point: on the ring (nearest by position) or in the strip's slots; −1 for none. */
export function vidAtPoint(ring: RingIndex, L: RingLayout, x: number, y: number, focus: number | null): number {
  const { pos, dist } = positionAt(L, x, y);
  if (dist <= L.rFeOuter + 4 && dist >= L.rHub + 6) return nearestVid(ring.vids, pos);
  const S = L.strip;
  if (focus !== null && y >= S.y + 24 && y <= S.y + S.h && x >= S.slotsX) {
    const win = stripWindow(ring, focus, chainsOf(ring, focus));
    const { x0, w } = stripSlots(L, win.length);
    const k = Math.floor((x - x0) / w);
    return k >= 0 && k < win.length ? win[k]! : -1;
  }
  return -1;
}

/**
 * The FAWN-KV ring view: the consistent-hashing ring as a circle, 0 at 12 o'clock, clockwise.
 * From the outside in: the front-ends' wedges (a band), the joins' copy progress (a track),
 * the ranges each VID owns (arcs coloured by physical node), a tick per VID, and inside the
 * chains of the focused VID, one track each, with its role marked (H head, M mid, T tail).
 * Messages are dots moving from sender to receiver: a back-end sits on the ring at its VID in
 * the chain of the message's position (else its first VID), a front-end in the centre.
 * Below the ring a strip unrolls the focused VID's neighbourhood, one slot per VID in ring
 * order, with each of its chains as a row and named in words.
 *
 * Two layers, both pure: ringBaseScene (ring, ticks, labels, legend) changes only with the
 * ring or the nodes' states and is painted to an offscreen canvas; ringOverlayScene (focus,
 * chains, joins, messages at `nowNs`) is drawn over it every frame and costs
 * O(messages × (R + log VIDs) + joins + R²): nothing per VID. Hit-testing is a binary search
 * on position.
 */
import * as d3 from 'd3';
import type { FawnkvJoin, FawnkvMessage, FawnkvNode } from '../model/fawnkvTypes';
import { FONT, FONT_BOLD, FONT_MONO, FONT_SMALL, type Scene, type SceneItem } from './canvasScene';
import { chainFor, chainsOf, nearestVid, rangeOf, rangeWidth, vidCount, vidName, type ChainRole, type ChainSlot, type RingIndex } from './ringModel';

const TAU = 2 * Math.PI;
const INK = '#1f2328';
const MUTED = '#4b5563';
const FAILED_FILL = '#e4e7eb';
const FAILED_TICK = '#8c939d';
const CROSS = '#b3261e';
const FE_FILLS = ['#c9d1db', '#8e99a8'];

/** Message colours by kind (Okabe & Ito); membership and flush share one, heartbeats are hollow. */
export const MESSAGE_COLOURS: Record<FawnkvMessage['kind'], string> = {
  put: '#D55E00',
  'chain-put': '#E69F00',
  ack: '#009E73',
  get: '#0072B2',
  reply: '#56B4E9',
  precopy: '#CC79A7',
  membership: '#000000',
  flush: '#000000',
  heartbeat: '#ffffff',
};

/** The legend's message entries, in the order a put and a get travel. */
export const MESSAGE_LEGEND: Array<{ label: string; kind: FawnkvMessage['kind'] }> = [
  { label: 'put (front-end → head)', kind: 'put' },
  { label: 'chain-put (down the chain)', kind: 'chain-put' },
  { label: 'ack (tail → front-end)', kind: 'ack' },
  { label: 'get (front-end → tail)', kind: 'get' },
  { label: 'reply (tail → front-end)', kind: 'reply' },
  { label: 'pre-copy (donor → joiner)', kind: 'precopy' },
  { label: 'membership / flush', kind: 'membership' },
  { label: 'heartbeat', kind: 'heartbeat' },
];

const ROLE_LETTER: Record<ChainRole, string> = { head: 'H', mid: 'M', tail: 'T', only: '1' };
const ROLE_TEXT: Record<ChainRole, string> = { head: 'head', mid: 'mid', tail: 'tail', only: 'sole copy' };

/** Above this many VIDs the ticks carry no names (they would overlap). */
export const LABEL_MAX_VIDS = 36;
/** Slots the neighbourhood strip shows at most. */
const STRIP_MAX_SLOTS = 40;
/** Messages drawn at most per frame. */
const MAX_DOTS = 2000;
const LEGEND_W = 260;
const LINE = 16;

const colourCache = new Map<number, string>();
/**
 * A node's colour: D3's ten-hue categorical scheme, cycled, each further cycle of ten faded
 * towards white (so 64 nodes stay apart from their neighbours, if not from each other).
 */
export function nodeColour(id: number): string {
  let c = colourCache.get(id);
  if (!c) {
    const base = d3.schemeTableau10[id % 10]!;
    const fade = 0.14 * (Math.floor(id / 10) % 5);
    c = d3.color(d3.interpolateRgb(base, '#ffffff')(fade))!.formatHex();
    colourCache.set(id, c);
  }
  return c;
}

const fillCache = new Map<number, string>();
/** The pale fill of a node's ranges (the ticks keep the full colour). */
export function nodeFill(id: number): string {
  let c = fillCache.get(id);
  if (!c) {
    c = d3.color(d3.interpolateRgb(nodeColour(id), '#ffffff')(0.5))!.formatHex();
    fillCache.set(id, c);
  }
  return c;
}

/** "6a3f…": the first 16 bits of a ring position in hex, as FAWN-DS labels key ranges. */
export function fmtPos(p: number): string {
  return `${Math.min(0xffff, Math.floor(p * 65536)).toString(16).padStart(4, '0')}…`;
}

export function fmtRange(start: number, end: number): string {
  return `(${fmtPos(start)}, ${fmtPos(end)}]`;
}

export function fmtShare(w: number): string {
  return `${(w * 100).toFixed(w < 0.1 ? 2 : 1)}%`;
}

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
function columns(w: number): number {
  return Math.max(1, Math.floor(w / 240));
}

/** Lines the node list takes: every node up to 12, else a line about the palette and up to 6 nodes not up. */
const NODE_LINES = 12;
/** Lines the overlay may use under the node list: the message count, a heading and 5 joins. */
const OVERLAY_LINES = 7;

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
function arcSpan(start: number, end: number, r: number, minPx = 0): [number, number] {
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
function arcItem(L: RingLayout, start: number, end: number, r: number, stroke: string, lw: number, minPx = 0, tag?: string, dash?: number[]): SceneItem {
  const [a0, a1] = arcSpan(start, end, r, minPx);
  return { t: 'arc', cx: L.cx, cy: L.cy, r, a0, a1, stroke, lw, ...(tag ? { tag } : {}), ...(dash ? { dash } : {}) };
}

/**
 * Text at a ring position, anchored so it extends away from the point in the direction
 * `outward` (towards the centre when false), kept inside the ring's square.
 */
function polarText(L: RingLayout, p: number, r: number, text: string, outward: boolean, font = FONT_SMALL, fill = INK): SceneItem {
  const [x, y] = pointAt(L, p, r);
  const c = Math.cos(angleOf(p));
  const align = Math.abs(c) < 0.3 ? 'center' : (c > 0) === outward ? 'left' : 'right';
  const w = text.length * 6.2;
  const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
  const shift = Math.max(0, 2 - left) - Math.max(0, left + w - (2 * L.cx - 2));
  return { t: 'text', x: x + shift, y, text, font, fill, align, baseline: 'middle' };
}

/** Legend entries in as many 240-px columns as fit in `w`, LINE apart; returns the y after the last. */
function flow(x: number, y: number, w: number, entries: Array<(x: number, y: number) => void>): number {
  const cols = columns(w);
  const colW = w / cols;
  entries.forEach((draw, k) => draw(x + (k % cols) * colW, y + Math.floor(k / cols) * LINE));
  return y + Math.ceil(entries.length / cols) * LINE;
}

export interface RingBaseOptions {
  width: number;
  replication: number;
  nodes: Array<Pick<FawnkvNode, 'id' | 'state'>>;
  frontEnds: Array<{ id: number; start: number; end: number }>;
}

/** The static layer: front-end band, ranges, ticks, names, failed nodes crossed, the legend. */
export function ringBaseScene(ring: RingIndex, o: RingBaseOptions): { scene: Scene; layout: RingLayout } {
  const { vids } = ring;
  const n = vidCount(vids);
  const L = ringLayout(o.width, o.replication, n, ring.shares.size);
  const items: SceneItem[] = [];
  const state = new Map(o.nodes.map((x) => [x.id, x.state]));
  const failed = (node: number) => state.get(node) === 'failed';

  // Front-end wedges, with their names outside.
  o.frontEnds.forEach((f, k) => {
    items.push(arcItem(L, f.start, f.end, (L.rFeOuter + L.rFeInner) / 2, FE_FILLS[k % 2]!, L.rFeOuter - L.rFeInner, 0, `front-end ${f.id}`));
    const mid = f.start + rangeWidth(f.start, f.end) / 2;
    items.push(polarText(L, mid - Math.floor(mid), L.rFeOuter + 6, o.frontEnds.length === 1 ? `FE ${f.id}: whole ring` : `FE ${f.id}`, true));
  });

  // Ranges: arcs in the owner's pale colour, one stroke per colour. Ranges narrower than a
  // pixel are merged with the ones after them, the group taking the colour of its widest, so
  // the arcs are bounded by the circumference rather than the VIDs.
  const band = (L.rBandOuter + L.rBandInner) / 2;
  const bandW = L.rBandOuter - L.rBandInner;
  const minWidth = 1 / (TAU * band);
  const spans = new Map<string, number[]>();
  const fillOf = (i: number) => (failed(vids.node[i]!) ? FAILED_FILL : nodeFill(vids.node[i]!));
  for (let i = 0; i < n; ) {
    const start = rangeOf(vids, i).start;
    let widest = i;
    let width = 0;
    let j = i;
    for (; j < n && (j === i || width < minWidth); j++) {
      const w = rangeWidth(rangeOf(vids, j).start, vids.pos[j]!);
      if (w > rangeWidth(rangeOf(vids, widest).start, vids.pos[widest]!)) widest = j;
      width += w;
    }
    const fill = fillOf(widest);
    let list = spans.get(fill);
    if (!list) spans.set(fill, (list = []));
    list.push(...arcSpan(start, vids.pos[j - 1]!, band));
    i = j;
  }
  for (const [fill, list] of spans) items.push({ t: 'arcs', cx: L.cx, cy: L.cy, r: band, spans: list, stroke: fill, lw: bandW });
  // Ticks, one stroke per node.
  const ticks = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const node = vids.node[i]!;
    const [x1, y1] = pointAt(L, vids.pos[i]!, L.rBandOuter);
    const [x2, y2] = pointAt(L, vids.pos[i]!, L.rTickInner);
    let xy = ticks.get(node);
    if (!xy) ticks.set(node, (xy = []));
    xy.push(x1, y1, x2, y2);
  }
  for (const [node, xy] of [...ticks].sort((a, b) => a[0] - b[0])) {
    items.push({ t: 'segments', xy, stroke: failed(node) ? FAILED_TICK : nodeColour(node), lw: n > 1024 ? 1 : 2, tag: `node ${node}` });
  }
  // Failed nodes: a cross on each VID (smaller when there are many).
  const c = n > 256 ? 3.5 : 5;
  for (let i = 0; i < n; i++) {
    if (!failed(vids.node[i]!)) continue;
    const [x, y] = pointAt(L, vids.pos[i]!, (L.rBandOuter + L.rTickInner) / 2);
    items.push({ t: 'segments', xy: [x - c, y - c, x + c, y + c, x - c, y + c, x + c, y - c], stroke: CROSS, lw: n > 256 ? 2 : 2.5, tag: `failed ${vidName(vids, i)}` });
  }
  if (L.labels) vidLabels(items, L, ring, failed);
  // 12 o'clock.
  items.push({ t: 'line', x1: L.cx, y1: L.cy - L.rFeOuter - 2, x2: L.cx, y2: L.cy - L.rFeOuter + 12, stroke: INK, lw: 1 });

  legend(items, ring, L, o, state);
  return { scene: { width: L.width, height: L.height, items }, layout: L };
}

/**
 * VID names inside the ticks. A name too close to the one before it moves one lane inwards;
 * too close there as well, it is left out (the strip and the readout still name every VID).
 */
function vidLabels(items: SceneItem[], L: RingLayout, ring: RingIndex, failed: (node: number) => boolean): void {
  const { vids } = ring;
  const lanes = [L.rLabel, L.rLabel - 13];
  const last: Array<[number, number] | null> = [null, null];
  const first: Array<[number, number] | null> = [null, null];
  const clear = (a: [number, number] | null, b: [number, number]) => !a || Math.hypot(a[0] - b[0], a[1] - b[1]) >= 22;
  for (let i = 0; i < vidCount(vids); i++) {
    const p = vids.pos[i]!;
    const lane = lanes.findIndex((r, k) => {
      const at = pointAt(L, p, r);
      return clear(last[k]!, at) && clear(first[k]!, at);
    });
    if (lane < 0) continue;
    last[lane] = pointAt(L, p, lanes[lane]!);
    first[lane] ??= last[lane];
    items.push(polarText(L, p, lanes[lane]!, vidName(vids, i), false, FONT_MONO, failed(vids.node[i]!) ? FAILED_TICK : INK));
  }
}

function legend(items: SceneItem[], ring: RingIndex, L: RingLayout, o: RingBaseOptions, state: Map<number, FawnkvNode['state']>): void {
  let { x, w } = L.legend;
  let y = L.legend.y + 12;
  const nodesOnRing = [...ring.shares.keys()].sort((a, b) => a - b);
  const r = Math.min(o.replication, ring.distinct);
  items.push({ t: 'text', x, y, text: `${nodesOnRing.length} nodes · ${vidCount(ring.vids)} VIDs · R = ${r}${r < o.replication ? ` (of ${o.replication}: too few nodes)` : ''}`, font: FONT_BOLD });
  y += LINE;
  items.push({ t: 'text', x, y, text: 'positions: first 16 bits of the 160-bit ID', font: FONT_SMALL, fill: MUTED });
  y += LINE + 6;
  const stateNote = (id: number) => {
    const s = state.get(id);
    return s && s !== 'up' ? ` · ${s}` : '';
  };
  const swatch = (id: number) => (lx: number, ly: number) => {
    const f = state.get(id) === 'failed';
    items.push({ t: 'rect', x: lx, y: ly - 9, w: 12, h: 10, fill: f ? FAILED_FILL : nodeFill(id), stroke: f ? FAILED_TICK : nodeColour(id), lw: 2 });
    const s = ring.shares.get(id)!;
    items.push({ t: 'text', x: lx + 18, y: ly, text: `node ${id} · ${fmtShare(s.share)} · ${s.vids} VID${s.vids === 1 ? '' : 's'}${stateNote(id)}`, font: FONT_SMALL });
  };
  items.push({ t: 'text', x, y, text: 'Nodes: share of the ring each owns', font: FONT_BOLD });
  y += LINE;
  const listed = nodesOnRing.length <= NODE_LINES ? nodesOnRing : nodesOnRing.filter((id) => (state.get(id) ?? 'up') !== 'up').slice(0, 6);
  y = flow(x, y, w, listed.map(swatch));
  if (listed.length < nodesOnRing.length) {
    const rest = nodesOnRing.length - listed.length;
    items.push({ t: 'text', x, y, text: `${listed.length ? `${rest} more` : `${rest} nodes`}: ten hues, paler each cycle of ten`, font: FONT_SMALL, fill: MUTED });
    y += LINE;
  }
  L.legendEnd = y + 10;

  // The key, under the strip.
  ({ x, w } = L.key);
  y = L.key.y + 12;
  items.push({ t: 'text', x, y, text: 'Messages', font: FONT_BOLD });
  y += LINE;
  y = flow(x, y, w, MESSAGE_LEGEND.map((m) => (lx: number, ly: number) => {
    items.push(dots([lx + 6, ly - 4], m.kind));
    items.push({ t: 'text', x: lx + 18, y: ly, text: m.label, font: FONT_SMALL });
  }));
  y += 6;
  items.push({ t: 'text', x, y, text: 'Marks', font: FONT_BOLD });
  y += LINE;
  y = flow(x, y, w, [
    (lx, ly) => {
      items.push({ t: 'rect', x: lx, y: ly - 8, w: 12, h: 8, fill: FE_FILLS[1] });
      items.push({ t: 'text', x: lx + 18, y: ly, text: 'outer band: front-end wedges', font: FONT_SMALL });
    },
    (lx, ly) => {
      items.push({ t: 'line', x1: lx, y1: ly - 4, x2: lx + 13, y2: ly - 4, stroke: INK, lw: 1.5, dash: [2, 2] });
      items.push({ t: 'rect', x: lx, y: ly - 6.5, w: 6, h: 5, fill: MESSAGE_COLOURS.precopy });
      items.push({ t: 'text', x: lx + 18, y: ly, text: 'join: range (dashed), part copied', font: FONT_SMALL });
    },
    (lx, ly) => {
      items.push({ t: 'segments', xy: [lx + 1, ly - 9, lx + 11, ly + 1, lx + 1, ly + 1, lx + 11, ly - 9], stroke: CROSS, lw: 2.5 });
      items.push({ t: 'text', x: lx + 18, y: ly, text: 'failed node (on each of its VIDs)', font: FONT_SMALL });
    },
    (lx, ly) => {
      items.push({ t: 'circle', cx: lx + 6, cy: ly - 4, r: 6, fill: INK });
      items.push({ t: 'text', x: lx + 6, y: ly - 0.5, text: 'H', font: FONT_SMALL, fill: '#ffffff', align: 'center' });
      items.push({ t: 'text', x: lx + 18, y: ly, text: 'focused VID: head / mid / tail', font: FONT_SMALL });
    },
  ]);
}

/** Message dots of one kind (centres [x, y, …]): filled with a dark rim; heartbeats hollow and smaller. */
function dots(xy: number[], kind: FawnkvMessage['kind'], r = 4.5): SceneItem {
  return kind === 'heartbeat'
    ? { t: 'dots', xy, r: r - 1, fill: '#ffffff', stroke: MUTED, lw: 1.5, tag: kind }
    : { t: 'dots', xy, r, fill: MESSAGE_COLOURS[kind], stroke: kind === 'membership' || kind === 'flush' ? '#ffffff' : INK, lw: 1, tag: kind };
}

/** Where front-end `f` of `count` sits: the centre for one, else around it towards its wedge. */
export function frontEndPoint(L: RingLayout, f: { start: number; end: number }, count: number): [number, number] {
  if (count <= 1) return [L.cx, L.cy];
  const mid = f.start + rangeWidth(f.start, f.end) / 2;
  return pointAt(L, mid - Math.floor(mid), L.rHub);
}

/** Where a message's endpoint is: a back-end at its VID in the chain of `pos` (else its first VID), a front-end in the centre. */
export function endpointAt(ring: RingIndex, L: RingLayout, who: number, pos: number, r: number, frontEnds: Array<{ start: number; end: number }>): [number, number] | null {
  if (who < 0) {
    const f = frontEnds[-1 - who];
    return f ? frontEndPoint(L, f, frontEnds.length) : [L.cx, L.cy];
  }
  const member = chainFor(ring, pos, r).find((i) => ring.vids.node[i] === who) ?? ring.first.get(who);
  return member === undefined ? null : pointAt(L, ring.vids.pos[member]!, L.rTickInner);
}

/** A message's place at `nowNs`: linear from sender to receiver; at the receiver once arrived (queued). */
export function messagePoint(a: [number, number], b: [number, number], m: Pick<FawnkvMessage, 'sent_ns' | 'arrive_ns'>, nowNs: number): [number, number] {
  const span = m.arrive_ns - m.sent_ns;
  const t = span > 0 ? Math.min(1, Math.max(0, (nowNs - m.sent_ns) / span)) : 1;
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
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
function stripSlots(L: RingLayout, count: number): { x0: number; w: number } {
  const x0 = L.strip.slotsX;
  return { x0, w: Math.max(4, (L.strip.w - 8 - x0) / Math.max(1, count)) };
}

/** One line naming a chain slot: "tail of (6a3f…, 7c12…]: 2/0 → 4/1 → 3/1". */
export function describeSlot(ring: RingIndex, s: ChainSlot): string {
  return `${ROLE_TEXT[s.role]} of ${fmtRange(s.start, s.end)}: ${s.chain.map((i) => vidName(ring.vids, i)).join(' → ')}`;
}

/** What the readout says about VID `i`. */
export function describeVid(ring: RingIndex, i: number, r: number): string {
  const { vids } = ring;
  if (i < 0 || i >= vidCount(vids)) return 'No VID.';
  const { start, end } = rangeOf(vids, i);
  const slots = chainsOf(vids, i, r);
  return `VID ${vidName(vids, i)} (node ${vids.node[i]}, ${i + 1} of ${vidCount(vids)} in ring order) owns ${fmtRange(start, end)}, ${fmtShare(rangeWidth(start, end))} of the ring; ` +
    `in ${slots.length} chain${slots.length === 1 ? '' : 's'}: ${slots.map((s) => describeSlot(ring, s)).join('; ')}.`;
}

export interface RingOverlayOptions {
  /** The focused VID's index, or null. */
  focus: number | null;
  pinned: boolean;
  replication: number;
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
  const slots = focus === null ? [] : chainsOf(vids, focus, o.replication);
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
    const a = endpointAt(ring, L, m.from, m.pos, o.replication, o.frontEnds);
    const b = endpointAt(ring, L, m.to, m.pos, o.replication, o.frontEnds);
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

/** The VID under a point: on the ring (nearest by position) or in the strip's slots; −1 for none. */
export function vidAtPoint(ring: RingIndex, L: RingLayout, x: number, y: number, focus: number | null, replication: number): number {
  const { pos, dist } = positionAt(L, x, y);
  if (dist <= L.rFeOuter + 4 && dist >= L.rHub + 6) return nearestVid(ring.vids, pos);
  const S = L.strip;
  if (focus !== null && y >= S.y + 24 && y <= S.y + S.h && x >= S.slotsX) {
    const win = stripWindow(ring, focus, chainsOf(ring.vids, focus, replication));
    const { x0, w } = stripSlots(L, win.length);
    const k = Math.floor((x - x0) / w);
    return k >= 0 && k < win.length ? win[k]! : -1;
  }
  return -1;
}

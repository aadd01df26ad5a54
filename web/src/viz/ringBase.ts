/**
 * The ring view's static layer, painted to an offscreen canvas only when the ring, the nodes'
 * states or the width change: the front-ends' wedges (a band), the ranges each VID owns (arcs
 * in the owner's pale colour, sub-pixel ranges merged), a tick per VID (one stroke per node),
 * failed nodes crossed out, the VIDs' names when they fit, and the legend: counts, the nodes'
 * shares, and the key of message colours and marks.
 */
import type { FawnkvNode } from '../model/ringTypes';
import { FONT_BOLD, FONT_MONO, FONT_SMALL, type Scene, type SceneItem } from './canvasScene';
import { arcItem, arcSpan, angleOf, columns, LINE, NODE_LINES, pointAt, ringLayout, TAU, type RingLayout } from './ringLayout';
import { rangeOf, rangeWidth, vidCount, vidName, type RingIndex } from './ringModel';
import { CROSS, dots, FAILED_FILL, FAILED_TICK, FE_FILLS, INK, MESSAGE_COLOURS, MESSAGE_LEGEND, MUTED, nodeColour, nodeFill } from './ringPalette';
import { fmtShare } from './ringText';

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

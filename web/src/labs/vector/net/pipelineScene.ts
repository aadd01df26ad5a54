/**
 * The live pipeline: clients → the wire → NIC + TCP → RPC threads → (intermediate queue) →
 * the NVM device's DMA channels → the completion interrupt → the reply → the wire back, as
 * boxes in a loop (the request path along the top, the reply path back along the bottom), with
 * every RPC in flight a mark in its stage's box: a dot for a single key, a bar for a vector of
 * keys (longer as it is wider, its width written on it when it fits; the keys of several RPCs
 * in one multiread from a connection's queue make one bar), request marks blue,
 * reply marks green. Within a box a mark moves along as it has been there longer (an easing
 * of its age, so marks glide between frames), on its connection's lane (its channel's on the
 * device). Each box says how many RPCs and keys are in it; each channel how busy it was.
 * Pure: pipelineScene() computes a Scene from the snapshot.
 */
import { FONT_BOLD, FONT_SMALL, type Scene, type SceneItem } from '../../../viz/canvasScene';
import { REPLY_COLOUR, REQUEST_COLOUR } from './netPalette';
import type { NetSnapshot, StageName } from './netTypes';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  label: string;
  /** Marks move right (request path) or left (reply path). */
  dir: 1 | -1;
}

export interface PipelineLayout {
  width: number;
  height: number;
  narrow: boolean;
  boxes: Record<StageName, Box>;
}

const TOP = 22;
const ROW_H = 96;
const ROW_GAP = 34;
const PAD = 5;
/** How long (µs) a mark takes to get about two thirds across its box. */
const EASE_US: Record<StageName, number> = {
  client: 20, wire_in: 40, nic: 10, thread: 15, queue: 60, device: 25, irq: 8, reply: 12, wire_out: 40,
};

/** Where each stage's box sits at `width` CSS px (a phone's narrow panel gets short labels). */
export function pipelineLayout(width: number, clients = 25): PipelineLayout {
  const narrow = width < 560;
  const m = 4;
  const gap = narrow ? 6 : 14;
  const colW = (width - 2 * m - 5 * gap) / 6;
  const col = (i: number) => m + i * (colW + gap);
  const y1 = TOP + ROW_H + ROW_GAP;
  const full = y1 + ROW_H - TOP;
  const L = (wide: string, short: string) => (narrow ? short : wide);
  const box = (i: number, y: number, w: number, h: number, label: string, dir: 1 | -1): Box => ({ x: col(i), y, w, h, label, dir });
  return {
    width,
    height: y1 + ROW_H + 30,
    narrow,
    boxes: {
      client: box(0, TOP, colW, full, L(`${clients} clients`, 'clients'), 1),
      wire_in: box(1, TOP, colW, ROW_H, L('1 GbE in', 'wire'), 1),
      nic: box(2, TOP, colW, ROW_H, L('NIC + TCP', 'NIC'), 1),
      thread: box(3, TOP, colW, ROW_H, L('RPC threads', 'threads'), 1),
      queue: box(4, TOP, colW, ROW_H, L('queue', 'queue'), 1),
      device: box(5, TOP, colW, full, L('NVM device', 'NVM'), -1),
      irq: box(4, y1, colW, ROW_H, L('interrupt', 'irq'), -1),
      reply: box(3, y1, colW, ROW_H, L('reply + send', 'reply'), -1),
      wire_out: box(1, y1, 2 * colW + gap, ROW_H, L('1 GbE back', 'wire'), -1),
    },
  };
}

/** How far across its box (0 … 1) a mark `age_us` into its stage sits. */
export function progress(stage: StageName, ageUs: number): number {
  return 1 - Math.exp(-Math.max(0, ageUs) / EASE_US[stage]);
}

/** A vector's bar length for `keys` keys (a single key is a dot). */
export function bundleLength(keys: number, max: number): number {
  return Math.min(max, 6 + 4 * Math.log2(Math.max(1, keys)));
}

/**
 * The marks to draw: [stage index, keys, connection, channel, µs in the stage]. RPCs at one
 * stage with the same connection, channel and age moved together (the keys of several RPCs in
 * one multiread from a connection's queue): they are one vector, one mark of all their keys.
 */
export function marks(sn: NetSnapshot): Array<[number, number, number, number, number]> {
  const out = new Map<string, [number, number, number, number, number]>();
  for (const [, si, keys, conn, channel, age] of sn.inflight.rpcs) {
    const k = `${si}|${conn}|${channel}|${age}`;
    const m = out.get(k);
    if (m) m[1] += keys;
    else out.set(k, [si, keys, conn, channel, age]);
  }
  return [...out.values()];
}

const isReply = (s: StageName) => s === 'irq' || s === 'reply' || s === 'wire_out';

export function pipelineScene(sn: NetSnapshot, width: number): Scene {
  const L = pipelineLayout(width, sn.config.clients);
  const items: SceneItem[] = [];
  const stages = sn.inflight.stages;
  const channels = Math.max(1, sn.channels.occupied.length);
  const direct = sn.path === 'direct';
  const waiting = sn.queue_depth.reduce((a, b) => a + b, 0);

  // The loop's arrows: along the top, down the device, back along the bottom, up the clients.
  const b = L.boxes;
  const midTop = TOP + ROW_H / 2;
  const midBottom = b.irq.y + ROW_H / 2;
  const arrows: Array<[number, number, number, number]> = [
    [b.client.x + b.client.w, midTop, b.wire_in.x, midTop],
    [b.wire_in.x + b.wire_in.w, midTop, b.nic.x, midTop],
    [b.nic.x + b.nic.w, midTop, b.thread.x, midTop],
    [b.thread.x + b.thread.w, midTop, b.queue.x, midTop],
    [b.queue.x + b.queue.w, midTop, b.device.x, midTop],
    [b.device.x, midBottom, b.irq.x + b.irq.w, midBottom],
    [b.irq.x, midBottom, b.reply.x + b.reply.w, midBottom],
    [b.reply.x, midBottom, b.wire_out.x + b.wire_out.w, midBottom],
    [b.wire_out.x, midBottom, b.client.x + b.client.w, midBottom],
  ];
  for (const [x1, y1, x2, y2] of arrows) {
    items.push({ t: 'line', x1, y1, x2, y2, stroke: '#8c959f', lw: 1.5 });
    const d = x2 > x1 ? -1 : 1;
    items.push({ t: 'path', points: [[x2 + d * 5, y2 - 4], [x2, y2], [x2 + d * 5, y2 + 4]], stroke: '#8c959f', lw: 1.5 });
  }
  // The boxes, and the device's channels as lanes.
  for (const name of Object.keys(b) as StageName[]) {
    const box = b[name];
    const unused = name === 'queue' && direct;
    items.push({ t: 'rect', x: box.x, y: box.y, w: box.w, h: box.h, fill: unused ? '#f6f8fa' : '#ffffff', stroke: unused ? '#c4cad1' : '#8c959f', dash: unused ? [4, 3] : undefined, tag: name });
    items.push({ t: 'text', x: box.x + box.w / 2, y: box.y - 5, text: box.label, font: FONT_BOLD, align: 'center', fill: unused ? '#8c959f' : '#1f2328' });
  }
  const dev = b.device;
  const laneH = dev.h / channels;
  for (let c = 0; c < channels; c++) {
    const y = dev.y + c * laneH;
    const occ = sn.channels.occupied[c] ?? 0;
    items.push({ t: 'rect', x: dev.x + 1, y: y + 1, w: Math.max(0, (dev.w - 2) * Math.min(1, occ)), h: laneH - 2, fill: 'rgba(230,159,0,0.22)', tag: `ch${c}` });
    if (c > 0) items.push({ t: 'line', x1: dev.x, y1: y, x2: dev.x + dev.w, y2: y, stroke: '#d0d7de', dash: [2, 2] });
    items.push({ t: 'text', x: dev.x + 3, y: y + 11, text: L.narrow ? `${Math.round(occ * 100)}%` : `ch${c} ${Math.round(occ * 100)}%`, font: FONT_SMALL, fill: '#57606a' });
  }

  // The marks.
  const dots: Record<'request' | 'reply', number[]> = { request: [], reply: [] };
  for (const [si, keys, conn, channel, age] of marks(sn)) {
    const stage = stages[si];
    if (!stage) continue;
    const box = b[stage];
    const onDevice = stage === 'device' && channel >= 0;
    const top = onDevice ? dev.y + channel * laneH + 14 : box.y + 6;
    const h = onDevice ? laneH - 18 : box.h - 22;
    const lanes = Math.max(1, Math.floor(h / 8));
    const y = top + 4 + ((onDevice ? Math.floor(conn / lanes) : conn) % lanes) * (h / lanes);
    const span = box.w - 2 * PAD;
    const p = progress(stage, age);
    const len = keys > 1 ? bundleLength(keys, span) : 0;
    const reach = span - len;
    const x0 = box.dir > 0 ? box.x + PAD + p * reach : box.x + box.w - PAD - len - p * reach;
    const colour = isReply(stage) ? REPLY_COLOUR : REQUEST_COLOUR;
    if (keys <= 1) {
      dots[isReply(stage) ? 'reply' : 'request'].push(x0 + (box.dir > 0 ? 0 : len), y);
    } else {
      items.push({ t: 'rect', x: x0, y: y - 3, w: len, h: 6, fill: colour, tag: `×${keys}` });
      if (len >= 14) items.push({ t: 'text', x: x0 + len / 2, y: y + 2.5, text: String(keys), font: '600 8px system-ui, sans-serif', align: 'center', fill: '#fff' });
    }
  }
  if (dots.request.length) items.push({ t: 'dots', xy: dots.request, r: 2.6, fill: REQUEST_COLOUR, tag: 'request' });
  if (dots.reply.length) items.push({ t: 'dots', xy: dots.reply, r: 2.6, fill: REPLY_COLOUR, tag: 'reply' });

  // Each box's count, under it (the queue's keys waiting too).
  stages.forEach((stage, i) => {
    const box = b[stage];
    if (!box) return;
    const rpcs = sn.inflight.rpcs_at[i] ?? 0;
    const keys = sn.inflight.keys_at[i] ?? 0;
    let text = L.narrow ? `${rpcs}` : `${rpcs} RPC${rpcs === 1 ? '' : 's'}${keys !== rpcs ? ` · ${keys} keys` : ''}`;
    if (stage === 'queue') text = direct ? (L.narrow ? 'unused' : 'unused: direct') : `${waiting} key${waiting === 1 ? '' : 's'} waiting`;
    if (stage === 'client') text = L.narrow ? `${rpcs}` : `${rpcs} issuing`;
    items.push({ t: 'text', x: box.x + box.w / 2, y: box.y + box.h - 5, text, font: FONT_SMALL, align: 'center', fill: '#57606a' });
  });
  const listed = sn.inflight.rpcs.length;
  const note = listed < sn.inflight.total ? ` (${listed} of ${sn.inflight.total} drawn)` : '';
  items.push({ t: 'text', x: 4, y: L.height - 8, text: `${sn.inflight.total} RPCs in flight${note} · path: ${direct ? 'direct' : 'intermediate queue'}`, font: FONT_SMALL, fill: '#57606a' });
  return { width: L.width, height: L.height, items };
}

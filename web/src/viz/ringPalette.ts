/**
 * The ring view's colours: ink, the failed-node greys, the front-end wedges, a colour per
 * message kind and per node, and the message dot every layer and the legend draw.
 */
import * as d3 from 'd3';
import type { FawnkvMessage } from '../model/ringTypes';
import type { SceneItem } from './canvasScene';

export const INK = '#1f2328';
export const MUTED = '#4b5563';
export const FAILED_FILL = '#e4e7eb';
export const FAILED_TICK = '#8c939d';
export const CROSS = '#b3261e';
export const FE_FILLS = ['#c9d1db', '#8e99a8'];

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

/** Message dots of one kind (centres [x, y, …]): filled with a dark rim; heartbeats hollow and smaller. */
export function dots(xy: number[], kind: FawnkvMessage['kind'], r = 4.5): SceneItem {
  return kind === 'heartbeat'
    ? { t: 'dots', xy, r: r - 1, fill: '#ffffff', stroke: MUTED, lw: 1.5, tag: kind }
    : { t: 'dots', xy, r, fill: MESSAGE_COLOURS[kind], stroke: kind === 'membership' || kind === 'flush' ? '#ffffff' : INK, lw: 1, tag: kind };
}

/**
 * Fixtures for the ring views' tests (test data only; the app never uses them): rings built
 * by hand or from a fixed integer hash, messages of every kind and joins, so the ring model and
 * views can be checked without the core. The FAWN-KV lab's snapshot fixture builds on them
 * (labs/fawnkv/fawnkvFixtures.ts).
 */
import type { FawnkvJoin, FawnkvMessage, FawnkvNode, FawnkvVids } from '../model/ringTypes';
import type { Scene, SceneItem } from './canvasScene';
import { ringBaseScene } from './ringBase';
import type { RingLayout } from './ringLayout';
import type { RingIndex } from './ringModel';
import { ringOverlayScene, type RingOverlayOptions } from './ringOverlay';

/**
 * A ring from (node, index, position) triples in any order, with chains given by VID name,
 * head first, as the core would send them (a VID heading none of them heads an empty row).
 */
export function ringOf(list: Array<[node: number, index: number, pos: number]>, chains: string[][] = [], version = 1): FawnkvVids {
  const sorted = [...list].sort((a, b) => a[2] - b[2]);
  const names = sorted.map((v) => `${v[0]}/${v[1]}`);
  const width = Math.max(1, ...chains.map((c) => c.length));
  const rows = new Uint32Array(sorted.length * width).fill(0xffffffff);
  for (const c of chains) {
    const head = names.indexOf(c[0]!);
    c.forEach((name, k) => (rows[head * width + k] = names.indexOf(name)));
  }
  return {
    version,
    node: Uint32Array.from(sorted.map((v) => v[0])),
    index: Uint16Array.from(sorted.map((v) => v[1])),
    pos: Float64Array.from(sorted.map((v) => v[2])),
    chainLength: width,
    chains: rows,
  };
}

/**
 * The same ring with each VID heading a chain of itself and the next r − 1 VIDs clockwise: the
 * core's chains where neighbours are on distinct nodes (evenRing); test data elsewhere.
 */
export function withNextChains(vids: FawnkvVids, r: number): FawnkvVids {
  const n = vids.pos.length;
  const chains = new Uint32Array(n * r);
  for (let h = 0; h < n; h++) for (let k = 0; k < r; k++) chains[h * r + k] = (h + k) % n;
  return { ...vids, chainLength: r, chains };
}

/** Evenly spaced VIDs, node by node: 0/0, 1/0, …, (nodes−1)/0, 0/1, … (SOSP'09 Fig 6's picture for 6 × 2), chains of R = r. */
export function evenRing(nodes: number, v: number, r = 3): FawnkvVids {
  const list: Array<[number, number, number]> = [];
  const n = nodes * v;
  for (let j = 0; j < v; j++) for (let k = 0; k < nodes; k++) list.push([k, j, (j * nodes + k + 0.5) / n]);
  return withNextChains(ringOf(list), Math.min(r, nodes));
}

/**
 * The three-node ring of ring_test.cc's HandCheckedThreeNodes: the first 32 bits of
 * SHA-1("<node>/<j>") for nodes 1–3 with V = 2 (and node 4 when `withFour`), and its chains
 * for R = 2 as ring_test.cc checks them (2/0's skips 2/1; 3/1's wraps past 3/0 to 1/0).
 */
export function threeNodeRing(withFour = false): FawnkvVids {
  const h = (hex: string) => parseInt(hex, 16) / 2 ** 32;
  const list: Array<[number, number, number]> = [
    [3, 0, h('78e2fb03')], [1, 0, h('940549e9')], [2, 0, h('961a3744')],
    [2, 1, h('bbeae652')], [1, 1, h('e3b2823e')], [3, 1, h('ef7fad0c')],
  ];
  if (withFour) list.push([4, 0, h('ba057c93')], [4, 1, h('f77fcd66')]);
  return ringOf(list, withFour ? [] : [['3/0', '1/0'], ['1/0', '2/0'], ['2/0', '1/1'], ['2/1', '1/1'], ['1/1', '3/1'], ['3/1', '1/0']]);
}

/** A 53-bit fraction from a fixed integer hash of (a, b, seed): "hashed" placement without SHA-1. */
export function hashPos(a: number, b: number, seed = 1): number {
  const mix = (x: number) => {
    let h = Math.imul(x ^ (x >>> 16), 0x7feb352d);
    h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
    return (h ^ (h >>> 16)) >>> 0;
  };
  const hi = mix(a * 4099 + b * 65537 + seed * 31337);
  const lo = mix(hi ^ (b * 2654435761 + a));
  return (hi * 2 ** 21 + (lo >>> 11)) / 2 ** 53;
}

/** `nodes` × `v` VIDs at hashed positions (4096 VIDs on 64 nodes for the speed checks), chains of the next three VIDs. */
export function hashedRing(nodes: number, v: number, seed = 1): FawnkvVids {
  const list: Array<[number, number, number]> = [];
  for (let k = 0; k < nodes; k++) for (let j = 0; j < v; j++) list.push([k, j, hashPos(k, j, seed)]);
  return withNextChains(ringOf(list), 3);
}

export const MESSAGE_KINDS: FawnkvMessage['kind'][] = ['put', 'chain-put', 'ack', 'get', 'reply', 'precopy', 'membership', 'flush', 'heartbeat'];

/** One message of each kind, all half-way along at `now`, between back-ends and front-end 0. */
export function fixtureMessages(now: number): FawnkvMessage[] {
  const ends: Array<[number, number]> = [[-1, 0], [0, 1], [1, 0], [-1, 2], [2, -1], [3, 4], [-1, 5], [5, -1], [-1, 3]];
  return MESSAGE_KINDS.map((kind, i) => ({
    id: i + 1,
    kind,
    from: ends[i]![0],
    to: ends[i]![1],
    pos: (i + 0.5) / MESSAGE_KINDS.length,
    sent_ns: now - 100_000,
    arrive_ns: now + 100_000,
    bytes: 300,
  }));
}

/** Node 6 joining: a pre-copy for its first range a third done, and one in flush. */
export function fixtureJoins(): FawnkvJoin[] {
  return [
    { node: 6, vid: '6/0', start: 0.125, end: 0.2, role: 'tail', donor: 2, phase: 'precopy', copied_bytes: 1000, total_bytes: 3000 },
    { node: 6, vid: '6/1', start: 0.6, end: 0.66, role: 'head', donor: 1, phase: 'flush', copied_bytes: 2400, total_bytes: 2400 },
  ];
}

/** One front-end owning the whole ring. */
export const ONE_FE = [{ id: 0, start: 0, end: 0 }];

/** Nodes `ids`, up except those in `failed`. */
export function ringNodesOf(ids: number[], failed: number[] = []): Array<Pick<FawnkvNode, 'id' | 'state'>> {
  return ids.map((id) => ({ id, state: failed.includes(id) ? 'failed' : 'up' }));
}

/** The ring's overlay over its base layer (R = 3, every node up, one front-end) with options `o`. */
export function ringOverlayOf(ring: RingIndex, o: Partial<RingOverlayOptions>, width = 800): { scene: Scene; layout: RingLayout } {
  const { layout } = ringBaseScene(ring, { width, replication: 3, nodes: ringNodesOf([...ring.shares.keys()]), frontEnds: ONE_FE });
  const opts: RingOverlayOptions = { focus: null, pinned: false, nowNs: 0, messages: [], joins: [], frontEnds: ONE_FE, ...o };
  return { scene: ringOverlayScene(ring, layout, opts), layout };
}

/** A scene's items of one type. */
export function itemsOf<T extends SceneItem['t']>(s: Scene, t: T): Array<Extract<SceneItem, { t: T }>> {
  return s.items.filter((i): i is Extract<SceneItem, { t: T }> => i.t === t);
}

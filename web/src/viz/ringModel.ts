/**
 * FAWN-KV's consistent-hashing ring as pure functions over the VID columns (`FawnkvVids`:
 * node, index and position of every VID in ring order, and the chain whose head is each VID,
 * as the core computed it: wasm-core/src/fawnkv/ring.h in the lab, the front-end's routes on
 * the Cluster page). Nothing here decides a chain: the view reads the core's, and inverts
 * them once per ring version into "the chains a VID sits in".
 *
 * - A VID owns (predecessor, VID]; a position's owner is its successor VID (wrapping).
 * - The chain of VID i is row i of `chains` (`chainLength` wide, head first, 0xFFFFFFFF pads).
 *
 * Positions are fractions of the ring in [0, 1); every function takes indices into the columns.
 */
import type { FawnkvVids } from '../model/ringTypes';

/** A VID's role in one chain; `only` when the chain has one member (R = 1). */
export type ChainRole = 'head' | 'mid' | 'tail' | 'only';

/** One chain a VID sits in: the range (start, end] that `head` owns and the chain's members. */
export interface ChainSlot {
  /** Index of the chain's head, the VID owning the range. */
  head: number;
  start: number;
  end: number;
  /** VID indices, head first, tail last. */
  chain: number[];
  /** Where the VID asked about sits in `chain`. */
  position: number;
  role: ChainRole;
}

export function vidCount(vids: FawnkvVids): number {
  return vids.pos.length;
}

/** "node/index", as the core names VIDs ("7/2"). */
export function vidName(vids: FawnkvVids, i: number): string {
  return `${vids.node[i]}/${vids.index[i]}`;
}

/** The index of the VID before `i` in ring order (wrapping). */
export function pred(vids: FawnkvVids, i: number): number {
  const n = vidCount(vids);
  return i === 0 ? n - 1 : i - 1;
}

/** The range VID `i` owns, (predecessor's position, its position]. */
export function rangeOf(vids: FawnkvVids, i: number): { start: number; end: number } {
  return { start: vids.pos[pred(vids, i)]!, end: vids.pos[i]! };
}

/** The share of the ring in (start, end]; a range that starts where it ends is the whole ring. */
export function rangeWidth(start: number, end: number): number {
  if (start === end) return 1;
  const w = end - start;
  return w > 0 ? w : w + 1;
}

/** Whether position `p` is in (start, end] (wrapping; start = end is the whole ring). */
export function inRange(p: number, start: number, end: number): boolean {
  if (start === end) return true;
  return start < end ? p > start && p <= end : p > start || p <= end;
}

/** The first index whose position is ≥ p (n when none is). */
function lowerBound(pos: Float64Array, p: number): number {
  let lo = 0;
  let hi = pos.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pos[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The VID owning position `p`: its successor, the first VID at or after p, wrapping (−1 on an empty ring). */
export function ownerOf(vids: FawnkvVids, p: number): number {
  const n = vidCount(vids);
  if (n === 0) return -1;
  const i = lowerBound(vids.pos, p);
  return i === n ? 0 : i;
}

/** The VID nearest position `p` around the circle (for hit-testing a pointer; −1 on an empty ring). */
export function nearestVid(vids: FawnkvVids, p: number): number {
  const n = vidCount(vids);
  if (n === 0) return -1;
  const after = ownerOf(vids, p);
  const before = pred(vids, after);
  const d = (i: number) => {
    const x = Math.abs(vids.pos[i]! - p);
    return Math.min(x, 1 - x);
  };
  return d(before) < d(after) ? before : after;
}

/** How many distinct physical nodes have VIDs on the ring. */
export function distinctNodes(vids: FawnkvVids): number {
  return new Set(vids.node).size;
}

/** A VID's role at `position` in a chain of `length` members. */
export function roleAt(position: number, length: number): ChainRole {
  if (length <= 1) return 'only';
  if (position === 0) return 'head';
  return position === length - 1 ? 'tail' : 'mid';
}

/** Each node's share of the ring (the ranges its VIDs own) and its VID count, by node id. */
export function nodeShares(vids: FawnkvVids): Map<number, { share: number; vids: number }> {
  const out = new Map<number, { share: number; vids: number }>();
  const n = vidCount(vids);
  for (let i = 0; i < n; i++) {
    const { start, end } = rangeOf(vids, i);
    const e = out.get(vids.node[i]!) ?? { share: 0, vids: 0 };
    e.share += rangeWidth(start, end);
    e.vids += 1;
    out.set(vids.node[i]!, e);
  }
  return out;
}

/** Index of each VID by its name ("node/index"), for finding the VIDs the snapshot names. */
export function vidIndexByName(vids: FawnkvVids): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < vidCount(vids); i++) m.set(vidName(vids, i), i);
  return m;
}

/** Each node's first VID (the lowest index j), by node id: where the view places the node. */
export function firstVids(vids: FawnkvVids): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < vidCount(vids); i++) {
    const node = vids.node[i]!;
    const cur = m.get(node);
    if (cur === undefined || vids.index[i]! < vids.index[cur]!) m.set(node, i);
  }
  return m;
}

/** The chain whose head is VID `head`, as the core gave it: VID indices, head first (empty when it gave none). */
export function chainAt(vids: FawnkvVids, head: number): number[] {
  const n = vidCount(vids);
  const w = vids.chainLength;
  const out: number[] = [];
  if (head < 0 || head >= n || !(w > 0) || vids.chains.length !== n * w) return out;
  for (let k = 0; k < w; k++) {
    const m = vids.chains[head * w + k]!;
    if (m < n) out.push(m);
  }
  return out;
}

/**
 * What the view looks up every frame, computed once per ring version: the columns, the number
 * of distinct nodes, each node's first VID, VIDs by name, each node's share, and for each VID
 * the heads of the chains it sits in (the core's chains inverted).
 */
export interface RingIndex {
  vids: FawnkvVids;
  distinct: number;
  first: Map<number, number>;
  byName: Map<string, number>;
  shares: Map<number, { share: number; vids: number }>;
  /** memberOf[i]: the heads of the chains VID i is in, nearest counter-clockwise first (its own range first). */
  memberOf: number[][];
}

export function indexRing(vids: FawnkvVids): RingIndex {
  const n = vidCount(vids);
  const memberOf: number[][] = Array.from({ length: n }, () => []);
  for (let h = 0; h < n; h++) for (const m of chainAt(vids, h)) memberOf[m]!.push(h);
  const back = (i: number, h: number) => (i - h + n) % n;
  memberOf.forEach((heads, i) => heads.sort((a, b) => back(i, a) - back(i, b)));
  return { vids, distinct: distinctNodes(vids), first: firstVids(vids), byName: vidIndexByName(vids), shares: nodeShares(vids), memberOf };
}

/** The chains VID `i` sits in, its own range's first, then its predecessors' counter-clockwise. */
export function chainsOf(ring: RingIndex, i: number): ChainSlot[] {
  const { vids } = ring;
  return (ring.memberOf[i] ?? []).map((head) => {
    const chain = chainAt(vids, head);
    const position = chain.indexOf(i);
    const { start, end } = rangeOf(vids, head);
    return { head, start, end, chain, position, role: roleAt(position, chain.length) };
  });
}

/** The chain that stores position `p`: its owner's, head first. */
export function chainFor(ring: RingIndex, p: number): number[] {
  return chainAt(ring.vids, ownerOf(ring.vids, p));
}

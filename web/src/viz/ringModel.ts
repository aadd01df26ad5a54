/**
 * FAWN-KV's consistent-hashing ring as pure functions over the session's VID columns
 * (`FawnkvVids`: node, index and position of every VID, in ring order). The rules mirror
 * wasm-core/src/fawnkv/ring.h so the page can answer "which range, which chains, which role"
 * for any VID without asking the core:
 *
 * - A VID owns (predecessor, VID]; a position's owner is its successor VID (wrapping).
 * - The chain of a range is its owner followed clockwise by the first VID of each further
 *   *distinct* physical node until there are R nodes (ChainAt in ring.cc). R is capped at the
 *   number of distinct nodes, as the ring caps it while it is smaller than R.
 * - The chains a VID sits in are found walking counter-clockwise from it (ChainsContaining in
 *   ring.cc): its own range (head) first, then its predecessors' ranges, while neither its own
 *   node nor R distinct nodes have been passed.
 *
 * Positions are fractions of the ring in [0, 1); every function takes indices into the columns.
 */
import type { FawnkvVids } from '../model/fawnkvTypes';

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

/** R as the ring applies it: at most the number of distinct nodes. */
export function effectiveR(vids: FawnkvVids, r: number): number {
  return Math.max(1, Math.min(r, distinctNodes(vids)));
}

/** The chain whose head is VID `head`: the first VID of each distinct node clockwise, up to r. */
export function chainAt(vids: FawnkvVids, head: number, r: number): number[] {
  const n = vidCount(vids);
  const chain: number[] = [];
  const seen = new Set<number>();
  for (let step = 0; step < n && chain.length < r; step++) {
    const i = (head + step) % n;
    const node = vids.node[i]!;
    if (!seen.has(node)) {
      seen.add(node);
      chain.push(i);
    }
  }
  return chain;
}

/** A VID's role at `position` in a chain of `length` members. */
export function roleAt(position: number, length: number): ChainRole {
  if (length <= 1) return 'only';
  if (position === 0) return 'head';
  return position === length - 1 ? 'tail' : 'mid';
}

/**
 * Every chain VID `i` sits in for replication factor r (capped at the distinct nodes): its own
 * range first, then its predecessors' counter-clockwise. Exactly R chains unless a chain skips a
 * VID of a node already in it (then more or fewer; docs/decisions.md).
 */
export function chainsOf(vids: FawnkvVids, i: number, r: number): ChainSlot[] {
  const n = vidCount(vids);
  if (i < 0 || i >= n) return [];
  const rr = effectiveR(vids, r);
  const node = vids.node[i]!;
  const out: ChainSlot[] = [];
  // `seen`: the distinct nodes of the VIDs from the candidate head up to (not including) i.
  const seen = new Set<number>();
  let w = i;
  for (let step = 0; step < n; step++) {
    if (seen.has(node) || seen.size >= rr) break;
    const chain = chainAt(vids, w, rr);
    const position = seen.size;
    const { start, end } = rangeOf(vids, w);
    out.push({ head: w, start, end, chain, position, role: roleAt(position, chain.length) });
    w = pred(vids, w);
    seen.add(vids.node[w]!);
  }
  return out;
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

/**
 * What the view looks up every frame, computed once per ring version: the columns, the number
 * of distinct nodes, each node's first VID, VIDs by name and each node's share.
 */
export interface RingIndex {
  vids: FawnkvVids;
  distinct: number;
  first: Map<number, number>;
  byName: Map<string, number>;
  shares: Map<number, { share: number; vids: number }>;
}

export function indexRing(vids: FawnkvVids): RingIndex {
  return { vids, distinct: distinctNodes(vids), first: firstVids(vids), byName: vidIndexByName(vids), shares: nodeShares(vids) };
}

/** The chain that stores position `p` (R capped at the distinct nodes), head first. */
export function chainFor(ring: RingIndex, p: number, r: number): number[] {
  const owner = ownerOf(ring.vids, p);
  return owner < 0 ? [] : chainAt(ring.vids, owner, Math.max(1, Math.min(r, ring.distinct)));
}

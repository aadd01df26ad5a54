/**
 * From the real cluster's status messages to what the Cluster page draws: the ring as the
 * FAWN-KV lab's VID columns (a 40-hex VID's position is its top 53 bits / 2^53, so the same
 * ring view draws it), the back-ends, the membership changes in words, the event log, and
 * bounded histories of per-node throughput and client latency over wall-clock seconds.
 * Pure: times come from the messages (`timeMs`, the front-end's clock), never from here.
 */
import type { ClientInterval, ClusterNodeWire, ClusterViewWire, LoadStatus } from '@wire/cluster';
import type { FawnkvJoin, FawnkvVids } from './ringTypes';

/** A 40-hex ring id's position in [0, 1): its top 53 bits over 2^53 (NaN if it is not hex). */
export function hexToPos(hex: string): number {
  if (!/^[0-9a-fA-F]{14}/.test(hex)) return NaN;
  const hi = parseInt(hex.slice(0, 8), 16);          // bits 159…128
  const lo = parseInt(hex.slice(8, 14), 16) >>> 3;   // the next 21 bits
  return (hi * 2 ** 21 + lo) / 2 ** 53;
}

/**
 * The status's ring as VID columns in ring order, with the front-end's chains (its routes:
 * a range ending at a VID, and its chain of back-ends, head first) as rows of VID indices:
 * each back-end at its first VID from the range's owner on, as the ring view draws members.
 * Entries that are not VIDs are skipped, and so are routes whose range ends at no VID: the
 * front-end splits the range that wraps through 0 in two, and the piece ending at id 0 has
 * the same chain as the piece ending at the first VID.
 */
export function ringToVids(ring: ClusterViewWire['ring'], chains: ClusterViewWire['chains'] = [], version = 0): FawnkvVids {
  const list = (Array.isArray(ring) ? ring : [])
    .filter((v) => v && typeof v.vid === 'string' && Number.isInteger(v.node) && v.node >= 0)
    .map((v) => ({ pos: hexToPos(v.vid), node: v.node, index: Number.isInteger(v.index) ? v.index! : 0, vid: v.vid.toLowerCase() }))
    .filter((v) => Number.isFinite(v.pos))
    .sort((a, b) => (a.vid < b.vid ? -1 : a.vid > b.vid ? 1 : 0));
  const byHex = new Map(list.map((v, i) => [v.vid, i]));
  const ofNode = new Map<number, number[]>();
  list.forEach((v, i) => (ofNode.get(v.node) ?? ofNode.set(v.node, []).get(v.node)!).push(i));
  const rows = (Array.isArray(chains) ? chains : []).flatMap((c) => {
    const head = typeof c?.range?.[1] === 'string' ? byHex.get(c.range[1].toLowerCase()) : undefined;
    return head === undefined || !Array.isArray(c.chain) ? [] : [{ head, members: c.chain.map((node) => memberVid(ofNode.get(node), head)) }];
  });
  const width = Math.max(0, ...rows.map((r) => r.members.length));
  const table = new Uint32Array(list.length * width).fill(0xffffffff);
  for (const r of rows) r.members.forEach((m, k) => (table[r.head * width + k] = m));
  return {
    version,
    node: Uint32Array.from(list.map((v) => v.node)),
    index: Uint16Array.from(list.map((v) => v.index)),
    pos: Float64Array.from(list.map((v) => v.pos)),
    chainLength: width,
    chains: table,
  };
}

/** A node's first VID at or after index `from`, wrapping (0xFFFFFFFF when it has none): where a chain member sits. */
function memberVid(vids: number[] | undefined, from: number): number {
  if (!vids?.length) return 0xffffffff;
  return vids.find((i) => i >= from) ?? vids[0]!;
}

/** A key that changes exactly when the ring's VIDs or chains do. */
export function ringKey(ring: ClusterViewWire['ring'], chains: ClusterViewWire['chains'] = []): string {
  const vids = (Array.isArray(ring) ? ring : []).map((v) => `${v?.vid}:${v?.node}`).join(',');
  const rows = (Array.isArray(chains) ? chains : []).map((c) => `${c?.range?.[1]}:${Array.isArray(c?.chain) ? c.chain.join('.') : ''}`).join(',');
  return `${vids}|${rows}`;
}

export interface BackendView {
  id: number;
  /** joining, up, leaving, failed, or unknown. */
  state: string;
  /** running, killed, exited, remote. */
  process: string;
  pid: number | null;
  addr: string;
  servedPerS: number;
  /** Client requests it answered over the last interval: median and 99th percentile (ms), or null. */
  p50Ms: number | null;
  p99Ms: number | null;
  vids: number;
}

export function backendsOf(v: ClusterViewWire): BackendView[] {
  return (Array.isArray(v.nodes) ? v.nodes : [])
    .filter((n): n is ClusterNodeWire => !!n && n.role === 'backend' && Number.isInteger(n.id))
    .map((n) => ({
      id: n.id, state: String(n.state ?? 'unknown'), process: String(n.process ?? 'remote'), pid: n.pid ?? null, addr: n.addr ?? '',
      servedPerS: Number(n.servedPerS ?? 0) || 0, vids: Number(n.vids ?? 0) || 0,
      p50Ms: finiteOrNull(n.latencyMs?.p50), p99Ms: finiteOrNull(n.latencyMs?.p99),
    }));
}

function finiteOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The nodes as the ring view wants them: a failed node's VIDs are crossed out; a back-end
 * `recovering` (the front-end restored a saved ring and waits for it) is drawn as joining.
 */
export function ringNodes(backends: BackendView[]): Array<{ id: number; state: 'up' | 'joining' | 'leaving' | 'failed' | 'gone' }> {
  const known = new Set(['up', 'joining', 'leaving', 'failed']);
  return backends.map((b) => {
    const state = b.state === 'recovering' ? 'joining' : b.state;
    return { id: b.id, state: (known.has(state) ? state : 'gone') as 'up' | 'joining' | 'leaving' | 'failed' };
  });
}

/** "(6a3f…, 7c12…]" from a range of two 40-hex ids. */
function rangeText(r: unknown): string {
  if (!Array.isArray(r) || r.length !== 2) return 'a range';
  return `(${String(r[0]).slice(0, 4)}…, ${String(r[1]).slice(0, 4)}…]`;
}

const ids = (x: unknown): number[] => (Array.isArray(x) ? x.filter((n): n is number => Number.isInteger(n)) : []);

export interface ChangeView {
  /** The node joining (−1 for a repair after a failure or leave). */
  joiner: number;
  donor: number;
  phase: string;
  range: [string, string] | null;
  text: string;
}

/**
 * A membership change in words: "range (6a3f…, 7c12…]: node 4 joins, copying from node 2 —
 * precopy; chain 1 → 2 → 3 becomes 1 → 4 → 3". Accepts the host node's transitions
 * ({range, phase, oldChain, newChain, joiner, donor}) and simpler {kind, node, phase} ones.
 */
export function changeOf(c: unknown): ChangeView {
  const o = (c && typeof c === 'object' ? c : {}) as Record<string, unknown>;
  const phase = String(o.phase ?? '?');
  const range = Array.isArray(o.range) && o.range.length === 2 ? [String(o.range[0]), String(o.range[1])] as [string, string] : null;
  if ('kind' in o && !('newChain' in o)) {
    const node = Number.isInteger(o.node) ? (o.node as number) : -1;
    return { joiner: o.kind === 'join' ? node : -1, donor: -1, phase, range, text: `${String(o.kind)} of node ${node} — ${phase}` };
  }
  const joiner = Number.isInteger(o.joiner) ? (o.joiner as number) : -1;
  const donor = Number.isInteger(o.donor) ? (o.donor as number) : -1;
  const from = ids(o.oldChain);
  const to = ids(o.newChain);
  const who = joiner >= 0 ? `node ${joiner} joins${donor >= 0 ? `, copying from node ${donor}` : ''}` : `repair${donor >= 0 ? ` from node ${donor}` : ''}`;
  const chains = from.length || to.length ? `; chain ${from.join(' → ') || '—'} becomes ${to.join(' → ') || '—'}` : '';
  return { joiner, donor, phase, range, text: `range ${rangeText(o.range)}: ${who} — ${phase}${chains}` };
}

/**
 * The joins the ring view draws on its join track: one per change with a joiner and a range.
 * The real node reports no copy progress, so a range shows empty while it pre-copies and full
 * after; its phase is the host node's word (repair, precopy, insert, final, done).
 */
export function joinsOf(changes: ChangeView[]): FawnkvJoin[] {
  return changes.filter((c) => c.joiner >= 0 && c.range).map((c) => ({
    node: c.joiner, vid: `node ${c.joiner}`, start: hexToPos(c.range![0]), end: hexToPos(c.range![1]), role: 'tail',
    donor: c.donor, phase: c.phase as FawnkvJoin['phase'], copied_bytes: 0, total_bytes: 0,
  }));
}

/** One line of the event log from the node's {tNs, text} events (or any other shape, shown as JSON). */
export function eventText(e: unknown): string {
  if (e && typeof e === 'object') {
    const o = e as Record<string, unknown>;
    if (typeof o.text === 'string') {
      const t = typeof o.tNs === 'number' ? `${(o.tNs / 1e9).toFixed(2)} s  ` : '';
      return `${t}${o.text}`;
    }
    if (typeof o.kind === 'string') return `${o.kind}${o.node !== undefined ? ` node ${String(o.node)}` : ''}${o.phase !== undefined ? ` — ${String(o.phase)}` : ''}`;
  }
  return JSON.stringify(e) ?? String(e);
}

/** What the page shows at one moment. */
export interface ClusterView {
  timeMs: number | null;
  replicas: number;
  heartbeatMs: number;
  frontEnd: ClusterNodeWire | null;
  backends: BackendView[];
  ringKey: string;
  changes: ChangeView[];
  events: string[];
  load: LoadStatus | null;
}

export function viewOf(v: ClusterViewWire): ClusterView {
  const fe = (Array.isArray(v.nodes) ? v.nodes : []).find((n) => n?.role === 'frontend') ?? null;
  return {
    timeMs: typeof v.timeMs === 'number' ? v.timeMs : null,
    replicas: v.settings?.replicas ?? 3,
    heartbeatMs: v.settings?.heartbeatMs ?? 500,
    frontEnd: fe,
    backends: backendsOf(v),
    ringKey: ringKey(v.ring, v.chains),
    changes: (Array.isArray(v.changes) ? v.changes : []).map(changeOf),
    events: (Array.isArray(v.events) ? v.events : []).map(eventText),
    load: v.load ?? null,
  };
}

/** One status interval, as the charts plot it. */
export interface HistorySample {
  /** Seconds since the first sample (the front-end's wall clock). */
  t: number;
  /** Requests each back-end served per second. */
  perNode: Map<number, number>;
  /** Client operations per second at the front-end, and its latency percentiles (ms; null when no request finished). */
  opsPerS: number;
  errorsPerS: number;
  p50: number | null;
  p99: number | null;
}

/**
 * The last `max` status intervals (default 240: two minutes at two a second). A status without
 * a time, or one not later than the last, is ignored; a jump back in time (the front-end
 * restarted) starts afresh.
 */
export class ClusterHistory {
  private list: HistorySample[] = [];
  private t0: number | null = null;
  private lastMs = -Infinity;

  constructor(readonly max = 240) {}

  push(v: ClusterViewWire, client: ClientInterval | undefined): boolean {
    const ms = v.timeMs;
    if (typeof ms !== 'number' || !Number.isFinite(ms)) return false;
    if (ms <= this.lastMs) {
      if (this.lastMs - ms < 60_000) return false;
      this.clear();
    }
    this.t0 ??= ms;
    this.lastMs = ms;
    const perNode = new Map(backendsOf(v).map((b) => [b.id, b.servedPerS]));
    const ops = client ? client.ops.get + client.ops.put + client.ops.del + client.ops.multiget : 0;
    const done = ops - (client?.errors ?? 0) > 0;
    this.list.push({
      t: (ms - this.t0) / 1000, perNode, opsPerS: ops, errorsPerS: client?.errors ?? 0,
      p50: done ? client!.latencyMs.p50 : null, p99: done ? client!.latencyMs.p99 : null,
    });
    if (this.list.length > this.max) this.list.splice(0, this.list.length - this.max);
    return true;
  }

  samples(): readonly HistorySample[] {
    return this.list;
  }

  /** Every back-end seen in the window, ascending. */
  nodeIds(): number[] {
    const s = new Set<number>();
    for (const x of this.list) for (const id of x.perNode.keys()) s.add(id);
    return [...s].sort((a, b) => a - b);
  }

  clear(): void {
    this.list = [];
    this.t0 = null;
    this.lastMs = -Infinity;
  }
}

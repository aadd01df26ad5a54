/**
 * What the front-end reports about the cluster: the node's statusJson polled about twice a
 * second, per-node request rates from its `served` counters, and client latency percentiles
 * (p50/p99 over the last interval, from the latencies the node reports for each finished
 * request). Membership events (which the node hands out once) are kept, the last
 * EVENTS_KEPT of them, for GET /cluster and new WebSocket clients.
 */
import type { ChainWire, ChangeWire, ClientInterval, RingVidWire } from '../wire/cluster.js';
import type { KvOp } from './kvcore.js';

export const EVENTS_KEPT = 200;

export interface NodeStatus {
  id: number;
  state: string;         // the host node's: joining, up, leaving, failed
  served?: number;       // requests this back-end has served (a counter)
  [k: string]: unknown;
}

/** The host node's status: its ring, chains and changes as the wire contract carries them. */
export interface CoreStatus {
  nodes: NodeStatus[];
  ring: RingVidWire[];
  chains: ChainWire[];
  changes: ChangeWire[];
  events: unknown[];
}

/** The node's status JSON, checked for the fields this host relies on. */
export function parseCoreStatus(text: string): CoreStatus | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'statusJson is not JSON';
  }
  const o = v as Partial<CoreStatus> | null;
  if (!o || !Array.isArray(o.nodes) || o.nodes.some((n) => !Number.isInteger(n?.id))) return 'statusJson has no valid "nodes"';
  return { nodes: o.nodes, ring: o.ring ?? [], chains: o.chains ?? [], changes: o.changes ?? [], events: Array.isArray(o.events) ? o.events : [] };
}

/** The value at quantile q (0..1) of an ascending array (nearest rank); 0 for none. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/** The client requests of one interval, as the status message carries them. */
export type IntervalStats = ClientInterval;

const PER_NODE_KEPT = 50_000;

/** Client requests finished in the current interval. */
export class LatencyWindow {
  private lat: number[] = [];
  private byNode = new Map<number, number[]>();
  private ops: Record<KvOp, number> = { get: 0, put: 0, del: 0, multiget: 0 };
  private errors = 0;
  private since = Date.now();

  record(op: KvOp, ok: boolean, latencyNs: number, node = -1): void {
    this.ops[op]++;
    if (!ok) {
      this.errors++;
      return;
    }
    if (this.lat.length < 200_000) this.lat.push(latencyNs);
    if (node >= 0) {
      let l = this.byNode.get(node);
      if (!l) this.byNode.set(node, (l = []));
      if (l.length < PER_NODE_KEPT) l.push(latencyNs);
    }
  }

  /** The interval's numbers; starts a new interval. */
  roll(now = Date.now()): IntervalStats {
    const seconds = Math.max(1e-3, (now - this.since) / 1000);
    const sorted = this.lat.sort((a, b) => a - b);
    const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;
    const out: IntervalStats = {
      seconds,
      ops: { get: this.ops.get / seconds, put: this.ops.put / seconds, del: this.ops.del / seconds, multiget: this.ops.multiget / seconds },
      errors: this.errors / seconds,
      latencyMs: { p50: ms(percentile(sorted, 0.5)), p99: ms(percentile(sorted, 0.99)), max: ms(sorted[sorted.length - 1] ?? 0) },
      perNode: {},
    };
    for (const [id, l] of this.byNode) {
      l.sort((a, b) => a - b);
      out.perNode[String(id)] = { p50: ms(percentile(l, 0.5)), p99: ms(percentile(l, 0.99)), n: l.length };
    }
    this.byNode = new Map();
    this.lat = [];
    this.ops = { get: 0, put: 0, del: 0, multiget: 0 };
    this.errors = 0;
    this.since = now;
    return out;
  }
}

/** Requests served per second by each node, from the `served` counters of successive statuses. */
export class NodeRates {
  private last = new Map<number, { served: number; at: number }>();

  update(nodes: NodeStatus[], now = Date.now()): Map<number, number> {
    const out = new Map<number, number>();
    const next = new Map<number, { served: number; at: number }>();
    for (const n of nodes) {
      const cur = { served: Number(n.served ?? 0), at: now };
      const prev = this.last.get(n.id);
      const dt = prev ? (now - prev.at) / 1000 : 0;
      out.set(n.id, prev && dt > 0 ? Math.max(0, cur.served - prev.served) / dt : 0); // a restart resets to 0
      next.set(n.id, cur);
    }
    this.last = next;
    return out;
  }
}

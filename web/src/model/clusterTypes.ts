/**
 * Plain-data types of the real cluster's WebSocket stream and GET /cluster (docs/cluster.md):
 * the front-end's view of its nodes, ring, chains, membership changes and events, its client
 * statistics per interval, and the built-in load generator. Fields the page does not use are
 * left out; anything may be missing from an older or newer server, so the conversion in
 * clusterView.ts checks what it reads.
 */

export interface ClusterNodeWire {
  id: number;
  role: 'frontend' | 'backend';
  /** Back-ends: joining, up, leaving, failed (the node's), or unknown (a process the ring has not taken in). */
  state: string;
  addr?: string | null;
  /** Back-ends: running, killed, exited (children of the front-end) or remote. */
  process?: string;
  pid?: number | null;
  servedPerS?: number;
  /** Back-ends: the latency of the client requests it answered over the last interval (null: none). */
  latencyMs?: { p50: number; p99: number; n: number } | null;
  vids?: number;
  memcached?: string;
  peer?: string;
}

export interface LoadSettings {
  rate: number;
  putFraction: number;
  keys: number;
  zipf: number;
  valueBytes: number;
  multigetWidth: number;
}

export interface LoadInterval {
  seconds: number;
  opsPerS: number;
  ops: { get: number; put: number; multiget: number };
  keysPerS: number;
  errorsPerS: number;
  skippedPerS: number;
  offeredPerS: number;
  latencyMs: { p50: number; p99: number; max: number };
  outstanding: number;
  lastError: string;
}

export interface LoadStatus {
  running: boolean;
  settings: LoadSettings | null;
  seed: number | null;
  maxOutstanding: number;
  totals: { issued: number; completed: number; errors: number; skipped: number };
  interval: LoadInterval | null;
}

/** The front-end's client requests over the last interval (every request, the load's included). */
export interface ClientInterval {
  seconds: number;
  ops: { get: number; put: number; del: number; multiget: number };
  errors: number;
  latencyMs: { p50: number; p99: number; max: number };
}

export interface ClusterViewWire {
  nodes: ClusterNodeWire[];
  /** The ring's VIDs: 40-hex ids, their node and index. */
  ring: Array<{ vid: string; node: number; index?: number }>;
  chains: unknown[];
  changes: unknown[];
  events: unknown[];
  settings?: { replicas: number; vids: number; heartbeatMs: number; missed: number };
  load?: LoadStatus;
  /** The front-end's wall clock, ms since 1970. */
  timeMs?: number;
}

export type ClusterMessage =
  | ({ type: 'snapshot' } & ClusterViewWire)
  | ({ type: 'status'; client?: ClientInterval } & ClusterViewWire)
  | { type: 'event'; event: unknown };

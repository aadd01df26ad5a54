/**
 * Plain-data types of the FAWN-KV lab's live session (wasm-core/src/fawnkv/lab/session.h): a
 * simulated cluster of wimpy back-ends on a consistent-hashing ring, one or more front-ends,
 * chain replication, joins, leaves and failures, in virtual time.
 *
 * The ring's own types (back-ends, messages, joins, VID columns; ring positions and chains
 * explained there) are shared with the Cluster page: model/ringTypes.ts, re-exported here.
 */
import type { FawnkvJoin, FawnkvMessage, FawnkvNode } from '../../model/ringTypes';

export type { FawnkvJoin, FawnkvMessage, FawnkvNode, FawnkvVids } from '../../model/ringTypes';

/** The session's configuration (every field optional; the ranges are the session schema's, wasm-core/dist/sessions.json). */
export interface FawnkvConfig {
  /** Back-ends the cluster starts with, 1 … 64 (default 6). Node ids are 0 … nodes−1. */
  nodes?: number;
  /** Virtual IDs per back-end, 1 … 4096 (default 2). */
  vids?: number;
  /** Replication factor R, 1 … 5 (default 3). */
  replication?: number;
  /** Front-ends, each owning one wedge of the ring, 1 … 8 (default 1). */
  front_ends?: number;
  /** `hashed`: VID j of node n at SHA-1("n/j") (the paper); `even`: evenly spaced. */
  placement?: 'hashed' | 'even';
  /** Value size, 1 … 4096 bytes (default 256). Changes a running session. */
  value_bytes?: number;
  /** Front-end query cache entries per front-end, 0 (off) … 100000 (default 0). Changes a running session. */
  cache_entries?: number;
  /** Separate queues for client and chain messages at each back-end (default true; SOSP'09 footnote 5). */
  separate_queues?: boolean;
  /** Background load, 0 (off) … 100000 requests/s (Poisson). Changes a running session. */
  load_rate_per_s?: number;
  /** Fraction of the load that are puts, 0 … 1 (default 0.1). Changes a running session. */
  load_put_fraction?: number;
  /** The load's keys are k0 … k<load_keys−1>, 1 … 1,000,000 (default 1000). Changes a running session. */
  load_keys?: number;
  /** Zipf exponent of the load's key popularity, 0 (uniform) … 2 (default 0). Changes a running session. */
  zipf_s?: number;
  /** Keys "k0".."k<preload−1>" put before the session starts, 0 … 100000 (default 200). */
  preload?: number;
  /** Heartbeat period, 10 … 10000 ms (default 500; the release: 5000). */
  heartbeat_ms?: number;
}

/** A live scenario of the FAWN-KV lab: a configuration and operations applied once it starts. */
export interface FawnkvLiveConfig extends FawnkvConfig {
  script?: FawnkvOp[];
}

export type FawnkvOp =
  | { op: 'put'; key: string; value?: string }
  | { op: 'get'; key: string }
  /** A new back-end joins (id: the next free id when omitted), VID by VID. */
  | { op: 'add-node'; id?: number }
  /** A graceful leave: the front-end runs the leave protocol at once. */
  | { op: 'remove-node'; id: number }
  /** Fail-stop: the node stops answering; the front-end notices after missed heartbeats. */
  | { op: 'fail-node'; id: number }
  /** Bulk puts of keys "k<from>" … "k<from+count−1>". */
  | { op: 'fill'; count: number; from?: number }
  /** Runs the per-key linearizability checker over the history recorded so far. */
  | { op: 'check' };

/** What an operation returned. */
export interface FawnkvOpResult {
  op: string;
  /** Virtual ns the operation took (put/get: invoke → response). */
  latency_ns?: number;
  found?: boolean;
  value?: string;
  /** put/get: the chain that served it, head first (VID names "node/index"). */
  chain?: string[];
  /** get: whether the front-end cache answered. */
  cache_hit?: boolean;
  /** put/get: "ok", "refused" (a store had no room: not applied) or "timeout" (no answer in time). */
  result?: 'ok' | 'refused' | 'timeout';
  timed_out?: boolean;
  /** add-node: the new node's id. */
  id?: number;
  /** check: the checker's verdict. */
  check?: FawnkvCheck;
}

export interface FawnkvCheck {
  keys: number;
  operations: number;
  violations: number;
  /** The first violations, described ("k12: get at 1.2 s returned v3 after put v4 was acknowledged at 1.1 s"). */
  details: string[];
}

export interface FawnkvFrontEnd {
  id: number;
  /** Its wedge (start, end] as ring fractions. */
  start: number;
  end: number;
  cache_entries: number;
  cache_hits: number;
  cache_misses: number;
  qps: number;
}

/** One line of the cluster's event log ("12.30 s  node 4 failed: 3 heartbeats missed"). */
export interface FawnkvEvent {
  t_ns: number;
  text: string;
}

export interface FawnkvSnapshot {
  now_ns: number;
  /** Changes whenever the ring's VIDs change; fetch `vids()` again then. */
  ring_version: number;
  replication: number;
  nodes: FawnkvNode[];
  front_ends: FawnkvFrontEnd[];
  messages: FawnkvMessage[];
  joins: FawnkvJoin[];
  events: FawnkvEvent[];
  /** The cluster over the last second of virtual time. */
  qps: number;
  watts: number;
  qpj: number;
  /** Totals since the start. */
  puts: number;
  gets: number;
  timeouts: number;
  /** Writes a store refused for want of room (answered at once; not applied). */
  refused: number;
  /** The last check's verdict, if one ran. */
  check?: FawnkvCheck;
  /** Cluster QPS per 100 ms bucket, the newest last (at most 200). */
  timeline: Array<{ t_ns: number; qps: number; watts: number }>;
}

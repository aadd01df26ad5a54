/**
 * The wire contract of a real cluster's front-end (server/src/cluster/frontend.ts) and the
 * Cluster page (web/src/model/cluster*), declared once: GET /cluster's JSON view, the messages
 * on the /cluster/events WebSocket ({"type":"snapshot"|"status"|"event"}), and the load
 * generator's settings and status (POST /cluster/load). docs/cluster.md describes the fields.
 * The server builds these types; the page parses what it receives with parseClusterView and
 * parseClusterMessage, which name the first field that breaks the contract.
 * Pure: no Node or DOM imports (the web bundles it through its `@wire/*` alias).
 */

/** A node as the front-end lists it: itself (role "frontend", id −1) or a back-end. */
export interface ClusterNodeWire {
  id: number;
  role: 'frontend' | 'backend';
  /** Back-ends: joining, up, leaving, failed, recovering (the host node's), or unknown (a process the ring has not taken in). */
  state: string;
  addr?: string | null;
  /** Back-ends: running, killed, exited (children of the front-end) or remote. */
  process?: string;
  pid?: number | null;
  servedPerS?: number;
  /** Back-ends: the latency of the client requests it answered over the last interval (null: none). */
  latencyMs?: { p50: number; p99: number; n: number } | null;
  vids?: number;
  /** The front-end: its memcached and peer addresses. */
  memcached?: string;
  peer?: string;
}

/** The load generator's settings (POST /cluster/load). */
export interface LoadSettings {
  /** Arrivals per second. */
  rate: number;
  /** 0 … 1. */
  putFraction: number;
  /** Keys k0 … k<keys−1>. */
  keys: number;
  /** Zipf exponent of key popularity, 0 = uniform. */
  zipf: number;
  /** A put's value size. */
  valueBytes: number;
  /** Keys per get (> 1: a multiget). */
  multigetWidth: number;
}

export interface LoadInterval {
  seconds: number;
  /** Completed operations per second (a multiget counts once). */
  opsPerS: number;
  /** Per second. */
  ops: { get: number; put: number; multiget: number };
  /** Keys read or written per second. */
  keysPerS: number;
  errorsPerS: number;
  /** Arrivals dropped at the outstanding cap, per second. */
  skippedPerS: number;
  /** Arrivals (issued + skipped) per second. */
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
  /** The last interval rolled. */
  interval: LoadInterval | null;
}

/** The front-end's client requests over the last interval (every request, the load's included); rates per second. */
export interface ClientInterval {
  seconds: number;
  ops: { get: number; put: number; del: number; multiget: number };
  errors: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Per back-end that answered: its requests' latency percentiles and count. */
  perNode: Record<string, { p50: number; p99: number; n: number }>;
}

/** A VID on the ring: its 160-bit id in hex, its node and its index on that node. */
export interface RingVidWire {
  vid: string;
  node: number;
  index: number;
}

/** A range (start, end] of 160-bit ids in hex. */
export type RangeWire = [start: string, end: string];

/** One of the front-end's routes: the range ending at a VID and its chain of back-ends, head first. */
export interface ChainWire {
  range: RangeWire;
  chain: number[];
  epoch: number;
  /** The back-end that answers gets (−1: none). */
  reader: number;
}

/** A membership change in progress (or done) on one range. */
export interface ChangeWire {
  range: RangeWire;
  /** repair, precopy, insert, final, done. */
  phase: string;
  oldChain: number[];
  newChain: number[];
  /** −1 when none (a repair after a failure or leave). */
  joiner: number;
  donor: number;
}

export interface ClusterSettingsWire {
  replicas: number;
  vids: number;
  heartbeatMs: number;
  missed: number;
}

/** GET /cluster: the front-end's view of its nodes, ring, chains, changes, last events and load. */
export interface ClusterViewWire {
  nodes: ClusterNodeWire[];
  ring: RingVidWire[];
  chains: ChainWire[];
  changes: ChangeWire[];
  /** The host node's membership events ({tNs, text}), the last 50; shown as they come. */
  events: unknown[];
  settings: ClusterSettingsWire;
  load: LoadStatus;
  /** The front-end's wall clock, ms since 1970. */
  timeMs: number;
}

/** A WebSocket message: the view at once, then a status about twice a second, and each event as it happens. */
export type ClusterMessage =
  | ({ type: 'snapshot' } & ClusterViewWire)
  | ({ type: 'status'; client: ClientInterval } & ClusterViewWire)
  | { type: 'event'; event: unknown };

// The checks: each returns null, or what is wrong and where.
type Check = (v: unknown, at: string) => string | null;
type Shape = Record<string, Check>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num: Check = (v, at) => (typeof v === 'number' && Number.isFinite(v) ? null : `${at} is not a number`);
const int: Check = (v, at) => (Number.isInteger(v) ? null : `${at} is not an integer`);
const str: Check = (v, at) => (typeof v === 'string' ? null : `${at} is not a string`);
const bool: Check = (v, at) => (typeof v === 'boolean' ? null : `${at} is not true or false`);
const any: Check = () => null;
const hex40: Check = (v, at) => (typeof v === 'string' && /^[0-9a-fA-F]{40}$/.test(v) ? null : `${at} is not a 40-digit hex id`);
const oneOf = (...values: string[]): Check => (v, at) => (values.includes(v as string) ? null : `${at} is not one of ${values.join(', ')}`);
const orNull = (c: Check): Check => (v, at) => (v === null ? null : c(v, at));
const optional = (c: Check): Check => (v, at) => (v === undefined ? null : c(v, at));
const arrayOf = (c: Check): Check => (v, at) => {
  if (!Array.isArray(v)) return `${at} is not an array`;
  for (let i = 0; i < v.length; i++) {
    const e = c(v[i], `${at}[${i}]`);
    if (e) return e;
  }
  return null;
};
const object = (shape: Shape): Check => (v, at) => {
  if (!isObject(v)) return `${at} is not an object`;
  for (const [k, c] of Object.entries(shape)) {
    const e = c(v[k], `${at}.${k}`);
    if (e) return e;
  }
  return null;
};
const recordOf = (c: Check): Check => (v, at) => {
  if (!isObject(v)) return `${at} is not an object`;
  for (const [k, x] of Object.entries(v)) {
    const e = c(x, `${at}.${k}`);
    if (e) return e;
  }
  return null;
};
const range: Check = (v, at) => (Array.isArray(v) && v.length === 2 ? arrayOf(hex40)(v, at) : `${at} is not a [start, end] range`);
const percentiles = object({ p50: num, p99: num, max: num });

const NODE = object({
  id: int, role: oneOf('frontend', 'backend'), state: str, addr: optional(orNull(str)), process: optional(str), pid: optional(orNull(int)),
  servedPerS: optional(num), latencyMs: optional(orNull(object({ p50: num, p99: num, n: num }))), vids: optional(int),
  memcached: optional(str), peer: optional(str),
});
const LOAD_SETTINGS = object({ rate: num, putFraction: num, keys: num, zipf: num, valueBytes: num, multigetWidth: num });
const LOAD_STATUS = object({
  running: bool, settings: orNull(LOAD_SETTINGS), seed: orNull(num), maxOutstanding: num,
  totals: object({ issued: num, completed: num, errors: num, skipped: num }),
  interval: orNull(object({
    seconds: num, opsPerS: num, ops: object({ get: num, put: num, multiget: num }), keysPerS: num, errorsPerS: num, skippedPerS: num,
    offeredPerS: num, latencyMs: percentiles, outstanding: num, lastError: str,
  })),
});
const VIEW: Shape = {
  nodes: arrayOf(NODE),
  ring: arrayOf(object({ vid: hex40, node: int, index: int })),
  chains: arrayOf(object({ range, chain: arrayOf(int), epoch: num, reader: int })),
  changes: arrayOf(object({ range, phase: str, oldChain: arrayOf(int), newChain: arrayOf(int), joiner: int, donor: int })),
  events: arrayOf(any),
  settings: object({ replicas: int, vids: int, heartbeatMs: num, missed: int }),
  load: LOAD_STATUS,
  timeMs: num,
};
const CLIENT = object({
  seconds: num, ops: object({ get: num, put: num, del: num, multiget: num }), errors: num, latencyMs: percentiles,
  perNode: recordOf(object({ p50: num, p99: num, n: num })),
});

/** Checks a value against a shape of this contract: null when it holds, else the first field that breaks it. */
function check(v: unknown, shape: Shape, at: string): string | null {
  return object(shape)(v, at);
}

/** GET /cluster's body as the contract's view, or what is wrong with it. */
export function parseClusterView(v: unknown): ClusterViewWire | string {
  return check(v, VIEW, 'view') ?? (v as ClusterViewWire);
}

/** One WebSocket message (text or parsed JSON) as the contract's message, or what is wrong with it. */
export function parseClusterMessage(data: unknown): ClusterMessage | string {
  let v = data;
  if (typeof data === 'string') {
    try {
      v = JSON.parse(data);
    } catch {
      return 'the message is not JSON';
    }
  }
  if (!isObject(v)) return 'the message is not an object';
  switch (v.type) {
    case 'snapshot':
      return check(v, VIEW, 'snapshot') ?? (v as ClusterMessage);
    case 'status':
      return check(v, { ...VIEW, client: CLIENT }, 'status') ?? (v as ClusterMessage);
    case 'event':
      return 'event' in v ? (v as ClusterMessage) : 'event message has no "event"';
    default:
      return `unknown message type ${JSON.stringify(v.type)}`;
  }
}

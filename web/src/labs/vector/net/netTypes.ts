/**
 * Plain-data types of the Vector I/O lab's networked back-end session, `vector.net`
 * (wasm-core/src/vecio/lab/net_session.h; docs/vector/net-view.md): its configuration, the
 * per-frame snapshot and the `trace` operation's result. Rates and percentiles are over the
 * last `window_ns` of virtual time (20 ms).
 */

/** The session's configuration (ranges, units and help: the session schema, wasm-core/dist/sessions.json). */
export interface NetConfig {
  /** Multiget width G: keys per client RPC, 1 … 256 (live). */
  multiget: number;
  /** Multiread width R: keys per device command, 1 … 256 (live). */
  multiread: number;
  /** `auto`: direct when G ≥ R, the intermediate queue when G < R; `queue`: always the queue (live). */
  pattern: 'auto' | 'queue';
  /** A partly filled queue issues after this long, µs; 0: it waits for R keys (live). */
  queue_timeout_us: number;
  /** Offered lookups/s, all clients together (live). */
  load_per_s: number;
  clients: number;
  /** 0: the host profile's. */
  cores: number;
  host: string;
  keys: number;
  link_gbps: number;
  base_rtt_us: number;
  key_bytes: number;
  value_bytes: number;
  read_bytes: number;
  nic_coalesce_us: number;
  ack_delay_us: number;
}

/** Where an RPC is, in the order of `inflight.stages`. */
export type StageName = 'client' | 'wire_in' | 'nic' | 'thread' | 'queue' | 'device' | 'irq' | 'reply' | 'wire_out';
/** Where a core's time goes, in the order of `cost.kinds`. */
export type CostKindName = 'nic_irq' | 'tcp' | 'syscall' | 'rpc' | 'lookup' | 'queue' | 'submit' | 'io_irq' | 'wakeup';

/** An RPC in flight: [id, stage index, keys, connection, DMA channel (−1 off the device), µs in its stage]. */
export type InFlightRpc = [number, number, number, number, number, number];

/** An operating point: [virtual time ns, offered lookups/s, throughput lookups/s, p50 µs, p99 µs]. */
export type TrailPoint = [number, number, number, number, number];

export interface NetSnapshot {
  t_ns: number;
  /** The window the rates cover (20 ms once the session has run that long). */
  window_ns: number;
  config: { multiget: number; multiread: number; pattern: string; queue_timeout_us: number; load_per_s: number; clients: number; cores: number; host: string };
  /** The multiread pattern new RPCs take. */
  path: 'direct' | 'queue';
  rates: {
    offered_per_s: number;
    throughput_per_s: number;
    rpcs_per_s: number;
    packets_per_s: number;
    nic_irqs_per_s: number;
    syscalls_per_s: number;
    commands_per_s: number;
    io_irqs_per_s: number;
  };
  /** End-to-end latency of the RPCs answered in the window, at the clients. */
  latency_us: { rpcs: number; p50: number; p99: number; mean: number };
  cost: {
    kinds: CostKindName[];
    /** Cores busy with each kind (core-seconds per second). */
    cores: number[];
    /** Core-µs of each kind per lookup answered. */
    us_per_key: number[];
    /** Events of each kind per lookup answered. */
    events_per_key: number[];
    cores_busy: number;
  };
  /** Each core's busy fraction. */
  core_busy: number[];
  /** Keys waiting in each connection's intermediate queue. */
  queue_depth: number[];
  /** Each DMA channel: the share of the window with a command on it, and its commands now. */
  channels: { occupied: number[]; commands: number[] };
  inflight: {
    stages: StageName[];
    total: number;
    rpcs_at: number[];
    keys_at: number[];
    /** The first 240 in flight, oldest first. */
    rpcs: InFlightRpc[];
  };
  /** One operating point every 20 ms of virtual time, oldest first (the last 60). */
  trail: TrailPoint[];
  totals: { offered_keys: number; completed_keys: number; rpcs: number; commands: number };
}

export interface NetOp {
  op: 'trace';
}

/** `trace`: the next RPC issued, through its stages, each entered `at_us` after it was issued. */
export interface NetTrace {
  id: number;
  keys: number;
  conn: number;
  latency_us: number;
  channels: number[];
  stages: Array<{ stage: StageName; at_us: number }>;
}

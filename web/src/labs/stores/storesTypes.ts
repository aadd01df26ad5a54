/**
 * Plain-data types of the Stores lab's live session, `stores` (wasm-core/src/stores/lab/; the
 * snapshot is pinned in issue 17): its configuration (which stores run, the workload, device,
 * host, rate and records), the snapshot the page draws (one entry per store: its counters and
 * its own `structure`, the last get per store, recent events), the operations and their results.
 * Every structure field is read loosely (structureScenes.ts, storesReadout.ts): a store whose
 * writer adds or lacks a field still draws.
 */

/** The session's configuration (ranges, units, help and choices: the schema, wasm-core/dist/sessions.json). */
export interface StoresConfig {
  /** Which stores run (at least one). */
  cona: boolean;
  cona_1t: boolean;
  silt: boolean;
  lsm: boolean;
  fawnds: boolean;
  btree: boolean;
  /** "load" (puts of new records only) or a YCSB core workload id a … f. */
  workload: string;
  /** A flash profile (device::FlashProfiles()). */
  device: string;
  /** A host (stores::Hosts()): its CPU speed, cores and power. */
  host: string;
  /** Records preloaded into every store. */
  records: number;
  /** Operations per virtual second offered to every store, open loop (live). */
  rate_ops_per_s: number;
  /** The LSM's Bloom filter bits per key. */
  bloom_bits: number;
  /** The machine's scale (of the host's DRAM and the device), when the session has it. */
  scale?: number;
  /** Each store's file is sized for this many puts, when the session has it. */
  max_writes?: number;
}

/** A lesson's live configuration: the fields, and a script of operations. */
export type StoresLiveConfig = StoresConfig & { script?: StoresOp[] };

/** The session parameters that switch one store on, in StoreKinds() order, with the snapshot's kind. */
export const STORE_PARAMS = [
  { param: 'cona', kind: 'cona' },
  { param: 'cona_1t', kind: 'cona-1t' },
  { param: 'silt', kind: 'silt' },
  { param: 'lsm', kind: 'lsm' },
  { param: 'fawnds', kind: 'fawnds' },
  { param: 'btree', kind: 'btree' },
] as const satisfies ReadonlyArray<{ param: keyof StoresConfig; kind: string }>;

export interface ConaStructure {
  type: 'cona';
  buffer_capacity: number;
  /** [active entries, frozen entries]. */
  buffers: number[];
  levels: Array<{ level: number; cells: Array<{ slot: number; visible: boolean; entries: number; capacity: number; merged: number }> }>;
  merging: boolean;
  merge_level: number;
}

export interface SiltStructure {
  type: 'silt';
  log: { entries: number; capacity: number };
  /** The frozen LogStore waiting for or in its conversion (SILT's writer adds it; null: none). */
  frozen_log?: { entries: number; capacity: number } | null;
  /** Newest first. */
  hash_stores: Array<{ entries: number; capacity: number }>;
  sorted: { entries: number };
  converting: boolean;
  merging: boolean;
}

export interface LsmStructure {
  type: 'lsm';
  memtable: { bytes: number; capacity: number };
  immutable: boolean;
  levels: Array<{ level: number; files: number; bytes: number; target_bytes: number }>;
  /** The level being compacted into the next, or -1. */
  compacting: number;
}

export interface FawndsStructure {
  type: 'fawnds';
  log_bytes: number;
  log_capacity: number;
  index_buckets: number;
  index_used: number;
  garbage_bytes: number;
}

export interface BtreeStructure {
  type: 'btree';
  height: number;
  leaves: number;
  internals: number;
  pool_pages: number;
  pool_dirty: number;
}

/** A store's DescribeJson object (its writer owns it; one this page does not know is shown as text). */
export type StoreStructure = ConaStructure | SiltStructure | LsmStructure | FawndsStructure | BtreeStructure | { type: string; [k: string]: unknown };

export interface StoreRow {
  /** A StoreKinds() id: cona, cona-1t, silt, lsm, fawnds, btree. */
  kind: string;
  label: string;
  /** Operations completed. */
  ops: number;
  /** Operations offered and not yet served (the store falls behind the rate). */
  queued: number;
  reads: number;
  writes: number;
  write_iops: number;
  read_iops: number;
  read_p50_us: number;
  read_p99_us: number;
  write_p50_us: number;
  write_p99_us: number;
  dram_bytes: number;
  dram_bytes_per_key: number;
  lookup_reads_per_get: number;
  store_wa: number;
  ftl_wa: number;
  joules_per_op: number;
  stall_pct: number;
  background_busy_pct: number;
  /** Background jobs (merges, compactions, conversions, flushes) done so far. */
  background_jobs?: number;
  /** Operations dropped because the queue was full. */
  shed?: number;
  /** Scans the store could not serve (it has none). */
  skipped_scans?: number;
  /** Operations that failed, and the last failure's message. */
  errors?: number;
  last_error?: string;
  /** Reads that returned a value other than the version they must see (checked against the stream). */
  mismatches?: number;
  structure: StoreStructure;
}

export interface GetPerStore {
  kind: string;
  found: boolean;
  latency_us: number;
  device_reads: number;
}

export interface StoresGet {
  key: string;
  per_store: GetPerStore[];
}

export type StoresEventKind = 'merge' | 'compaction' | 'conversion' | 'flush' | 'flip';

export interface StoresEvent {
  t_ns: number;
  kind: StoresEventKind | string;
  /** The store's kind. */
  store: string;
  detail: string;
}

export interface StoresSnapshot {
  t_ns: number;
  workload: string;
  /** Operations offered to every store so far. */
  ops_offered: number;
  /** The rate offered to every store, the records loaded so far and the keys each store holds. */
  rate_ops_per_s?: number;
  records?: number;
  keys?: number;
  stores: StoreRow[];
  /** Chosen stores the session left out, and why. */
  skipped?: Array<{ kind: string; reason: string }>;
  last_get: StoresGet | null;
  /** The last 20, oldest first. */
  events: StoresEvent[];
}

export type StoresOp =
  | { op: 'put'; key: string; value: string }
  | { op: 'get'; key: string }
  | { op: 'get'; record: number }
  | { op: 'fill'; count: number }
  | { op: 'run_until'; ops: number };

/** An operation's result: the session's JSON (fields by operation; read loosely). */
export type StoresOpResult = Record<string, unknown>;

/**
 * Plain-data types of the FAWN-DS lab's live session (wasm-core/src/fawnds/lab/session.h):
 * its configuration, the operations the page sends, the per-frame snapshot and the two
 * column views (a store's log record by record, an index's bucket cells).
 */

/** The session's configuration (every field optional; the ranges are the session schema's, wasm-core/dist/sessions.json). */
export interface FawndsConfig {
  /** A device profile; default `sandisk-cf-4gb` (the FAWN prototype's CompactFlash card). */
  profile?: string;
  /** The device's capacity, 16 … 2048 MB (default 256). */
  capacity_mb?: number;
  /** Stores (key ranges) the node starts with, 1 … 16 (default 4). */
  stores?: number;
  /** Each store's index has 2^index_bits 6-byte buckets, 4 … 22 (default 10). */
  index_bits?: number;
  /** Each store's file, 1 … 1024 MB (default 16). */
  file_mb?: number;
  /** The lock at the end of split/merge/compact, 1 … 100000 µs (default 25000: SOSP'09's 20–30 ms). */
  lock_hold_us?: number;
  /** A write-through page cache, 0 (none) … 1024 MB. */
  page_cache_mb?: number;
  /** Value size for the load and fill, 0 … 4096 bytes (default 64). Changes a running session. */
  value_bytes?: number;
  /** Background load, 0 (off) … 50000 ops/s (Poisson). Changes a running session. */
  load_rate_per_s?: number;
  /** Fraction of the load that are puts, 0 … 1 (default 0.5). Changes a running session. */
  load_put_fraction?: number;
  /** The load's keys are k0 … k<load_keys−1>, 1 … 4,000,000 (default 1000). Changes a running session. */
  load_keys?: number;
}

/** A live scenario of the FAWN-DS lab: a configuration and operations applied once it starts. */
export interface FawndsLiveConfig extends FawndsConfig {
  script?: FawndsOp[];
}

export type FawndsOp =
  | { op: 'put'; key: string; value?: string }
  | { op: 'get'; key: string }
  | { op: 'delete'; key: string }
  | { op: 'fill'; count: number; from?: number }
  | { op: 'delete-many'; count: number; from?: number; step?: number }
  | { op: 'compact'; store: number; wait?: boolean }
  | { op: 'split'; store: number; fraction?: number; key?: string; wait?: boolean }
  | { op: 'merge'; a: number; b: number; wait?: boolean }
  | { op: 'checkpoint'; store?: number }
  | { op: 'sync' }
  | { op: 'crash' }
  | { op: 'recover' };

/** What an operation returned (fields depend on the operation). */
export interface FawndsOpResult {
  op: FawndsOp['op'];
  key?: string;
  key_hex?: string;
  store?: number;
  /** put/get/delete: `ok`, `not_found`, `error`, or `pending` (not finished within the budget). */
  status?: string;
  message?: string;
  value?: string;
  latency_ns?: number;
  record_reads?: number;
  queued?: boolean;
  finished?: boolean;
  at_hex?: string;
  issued?: number;
  succeeded?: number;
  lost_records?: number;
  unsynced_bytes?: number;
  replayed_records?: number;
  duration_ns?: number;
  /** recover: stores the node came back with; merge: the second store. */
  stores?: number;
  other?: number;
}

export interface FawndsRange {
  start_hex: string;
  end_hex: string;
  /** Positions on the ring in [0, 1); end_frac is start_frac + 1 for the whole ring. */
  start_frac: number;
  end_frac: number;
  label: string;
}

/** `building`: the new store a compaction or split is writing (its id is the store count). */
export type FawndsStoreRole = 'serving' | 'source' | 'destination' | 'building' | 'crashed';

export interface FawndsStore {
  id: number;
  role: FawndsStoreRole;
  range: FawndsRange;
  slot: number;
  file_offset: number;
  log_end: number;
  log_capacity: number;
  records: number;
  /** Valid buckets (0 while crashed: the index is gone). */
  live: number;
  /** Records a crash undid (never synced). */
  lost: number;
  index_bits: number;
  buckets: number;
  index_bytes: number;
  checkpoints: number;
}

/** [j, bucket, valid, fragment, offset, outcome] */
export type FawndsProbe = [number, number, boolean, number, number, FawndsProbeOutcome];
export type FawndsProbeOutcome = 'empty' | 'other' | 'false-positive' | 'hit' | 'free';

export interface FawndsLookup {
  op: 'put' | 'get' | 'delete';
  key: string;
  key_hex: string;
  store: number;
  /** INDEX (the key's low index_bits bits) and KEYFRAG (the next 15). */
  index: number;
  fragment: number;
  /** Held behind a maintenance lock when issued. */
  queued: boolean;
  probes: FawndsProbe[];
  /** The record reads the lookup made: one per fragment match. */
  reads: Array<{ log_offset: number; bytes: number; device_offset: number; false_positive: boolean }>;
}

export interface FawndsSnapshot {
  time_ns: number;
  version: number;
  crashed: boolean;
  crashed_at_ns: number;
  config: Required<FawndsConfig>;
  device: {
    profile: string;
    kind: string;
    capacity_bytes: number;
    unit_bytes: number;
    reads: number;
    writes: number;
    flushes: number;
    host_read_bytes: number;
    host_write_bytes: number;
    media_write_bytes: number;
    erases: number;
    gc_moves: number;
    queue_depth: number;
    joules: number;
    /** Bytes written since the last completed flush: what a crash now would undo. */
    unsynced_bytes: number;
    cache_hits: number;
    cache_misses: number;
  };
  stores: FawndsStore[];
  maintenance: {
    running: boolean;
    kind: '' | 'compact' | 'split' | 'merge';
    /** Store ids (-1: none); destination = the store count for a new store. */
    source: number;
    destination: number;
    scanned: number;
    source_end: number;
    copied: number;
    skipped: number;
    locked: boolean;
    lock_hold_ns: number;
    lock_started_ns: number;
    started_ns: number;
    /** Requests held by the lock. */
    queued: number;
    last_result: string;
  };
  last_lookup: FawndsLookup | null;
  ops: Array<{ id: number; op: string; key: string; status: string; message: string; value: string; latency_ns: number }>;
  /** The last recovery (Node::Recover from the datastore list), store by store in list order. */
  recovery: null | {
    duration_ns: number;
    list_seq: number;
    /** Index entries dropped because they lay outside the range the list gives their store. */
    restricted: number;
    stores: Array<{
      slot: number;
      range: string;
      from_checkpoint: boolean;
      checkpoint_seq: number;
      replayed_records: number;
      log_end: number;
      end_reason: string;
      duration_ns: number;
    }>;
  };
  load: { outstanding: number; issued: number; shed: number; errors: number; last_error: string };
  counters: {
    ops_issued: number;
    ops_completed: number;
    puts: number;
    gets: number;
    deletes: number;
    hits: number;
    misses: number;
    measured_gets: number;
    reads_per_lookup: number;
    false_positives: number;
    live_keys: number;
    index_bytes: number;
    index_bytes_per_bucket: number;
    dram_bytes_per_key: number;
    log_bytes: number;
    client_bytes: number;
    node_bytes_written: number;
    /** Device bytes the node wrote (records, copies, checkpoints) ÷ bytes of records clients stored. */
    write_amplification: number;
    /** Flash media bytes programmed ÷ bytes the node wrote. */
    flash_write_amplification: number;
    /** Completions over the last virtual second. */
    qps: number;
    mean_latency_us: number;
  };
  timeline: {
    bin_ns: number;
    first_ns: number;
    /** Completions per second in each 50 ms bin from first_ns. */
    qps: number[];
    locks: Array<[number, number]>;
    maintenance: Array<[number, number, string]>;
  };
}

/** Record states in LogColumns.flags (bits 0–2); the order of `counts`. */
export const RECORD_STATES = ['live', 'orphaned', 'deleted', 'out of range', 'lost'] as const;
export type RecordStateName = (typeof RECORD_STATES)[number];
export const STATE_MASK = 0x07;
export const FLAG_DELETE = 0x08;
export const FLAG_REPLAYED = 0x10;

/** A store's log, one entry per record (sizes: next offset − offset; the last: logEnd − offset). */
export interface FawndsLog {
  offsets: Uint32Array;
  flags: Uint8Array;
  /** The key's first 32 bits (its first 8 hex digits). */
  keys: Uint32Array;
  logEnd: number;
  /** Records per state, in RECORD_STATES order. */
  counts: number[];
}

/** `valid.length` cells of `group` buckets from `first`; fragments/offsets only for group 1. */
export interface FawndsIndexCells {
  indexBits: number;
  first: number;
  group: number;
  valid: Uint16Array;
  /** fragment | valid << 15 */
  fragments: Uint16Array;
  offsets: Uint32Array;
}

/**
 * Plain-data types of the CONA lab's live session, `cona` (wasm-core/src/cona/lab/; the
 * snapshot is pinned in issue 16): its configuration, the snapshot the structure view draws
 * (buffers, cells, the merge in progress, counters, the last lookup's trace, recent events),
 * the operations and their results.
 */

/** The session's configuration (ranges, units and help: the schema, wasm-core/dist/sessions.json). */
export interface ConaConfig {
  /** B, the bytes of each insertion buffer (8 … 1024 KB; Fig 3.4). */
  buffer_kb: number;
  /** Trie block size: "mix" (the thesis's per-level mix), or one size for every level. */
  trie: string;
  /** The 16-bit fragment array of the upper levels: "16" or "off". */
  fragments: string;
  /** The last level's fragments: "none" (default) or "8" (the full filter). */
  last_filter: string;
  /** The background merge thread (false: merges inline, the single-thread variant). */
  merge_thread: boolean;
  /** The background load: "insert" (puts of new records) or a YCSB core workload id. */
  workload: string;
  /** The background load's rate (ops/s of virtual time; live). */
  rate_ops_per_s: number;
  /** Records preloaded before the session starts. */
  records: number;
  /** The device is sized for this many records. */
  max_writes?: number;
  /** The machine's scale (the page cache is 8 GB × scale). */
  scale?: number;
}

/** A lesson's live configuration: the fields, and a script of operations. */
export type ConaLiveConfig = ConaConfig & { script?: ConaOp[] };

export interface ConaBuffer {
  role: 'active' | 'frozen';
  entries: number;
  /** The frozen buffer is full and waits for a free level-1 slot. */
  waiting?: boolean;
  /** The top 16 bits of up to 64 of its keys, sampled, sorted. */
  keys: number[];
}

export interface ConaCell {
  level: number;
  /** 0, 1: the visible slots; 2: the shadow. */
  slot: number;
  visible: boolean;
  entries: number;
  capacity: number;
  /** A shadow's entries written so far (== entries when its merge is done). */
  merged: number;
  trie_bytes: number;
  fragment_bytes: number;
  /** The trie's block size. */
  block: number;
  /** Bits per fragment (0: none). */
  fragment_bits: number;
  /** Creation order: higher is newer. */
  seq: number;
  /** A shadow whose merge completed (waiting to be linked). */
  done?: boolean;
  /** A visible cell already merged into a completed shadow below (dropped at the next flip). */
  consumed?: boolean;
}

export interface ConaMerge {
  active: boolean;
  /** Level L's cells merging into level L+1's shadow. */
  level: number;
  moved: number;
  total: number;
}

export interface ConaCounters {
  puts: number;
  gets: number;
  deletes: number;
  hits: number;
  misses: number;
  flash_reads: number;
  false_positives: number;
  fragment_skips: number;
  induces: number;
  merges: number;
  flips: number;
  merge_moves: number;
  merge_steps_per_insert: number;
  exposed_merge_ms: number;
  merge_ms: number;
  dram_bytes_per_key: number;
  trie_bytes: number;
  fragment_bytes: number;
  buffer_bytes: number;
  store_write_amp: number;
  ftl_write_amp: number;
  write_iops: number;
  read_iops: number;
  /** 0 … 1. */
  cache_hit_ratio: number;
}

/** 0 not here, 1 found, 2 a false positive (the fragment matched, the key differed), 3 found a delete marker. */
export type StepOutcome = 0 | 1 | 2 | 3;

export interface ConaLookupStep {
  /** 0: a buffer (slot 0 the active, 1 the frozen); else the cell's level. */
  level: number;
  slot: number;
  /** The trie's answer (in a buffer: the binary search's position). */
  rank: number;
  trie_symbols: number;
  /** -1: the cell has no fragments; 0: mismatch (skipped without a read); 1: match. */
  fragment: -1 | 0 | 1;
  flash_read: boolean;
  /** The page cache held every page of the read. */
  cache_hit: boolean;
  outcome: StepOutcome;
}

export interface ConaLookup {
  key: string;
  /** The key's top 16 bits (where it sits among the buffers' sampled keys). */
  prefix?: number;
  /** A workload record's number, when the lookup named one. */
  record?: number;
  found: boolean;
  latency_us: number;
  flash_reads: number;
  steps: ConaLookupStep[];
}

export type ConaEventKind = 'induce' | 'merge_start' | 'merge_done' | 'flip' | 'crash' | 'recover';

export interface ConaEvent {
  t_ns: number;
  kind: ConaEventKind | string;
  level: number;
}

export interface ConaSnapshot {
  t_ns: number;
  /** Entries per buffer. */
  buffer_capacity: number;
  levels: number;
  /** The most levels the store's file can hold. */
  max_levels?: number;
  entries: number;
  buffers: ConaBuffer[];
  cells: ConaCell[];
  merge: ConaMerge;
  counters: ConaCounters;
  last_lookup: ConaLookup | null;
  /** The last 20, oldest first. */
  events: ConaEvent[];
  /** Whether the store is down after a crash (until recover); absent: up. */
  crashed?: boolean;
  workload?: string;
  rate_ops_per_s?: number;
  records?: number;
  /** The background load: operations offered, completed, queued, shed, failed (and the last failure). */
  load?: ConaLoad;
}

export interface ConaLoad {
  offered: number;
  completed: number;
  outstanding: number;
  shed: number;
  errors: number;
  last_error: string;
  unsynced_writes: number;
}

export type ConaOp =
  | { op: 'put'; key: string; value: string }
  | { op: 'get'; key: string }
  | { op: 'get'; record: number }
  | { op: 'delete'; key: string }
  | { op: 'fill'; count: number }
  | { op: 'sync' }
  | { op: 'run_until'; event: 'induce' | 'merge_start' | 'merge_done' | 'flip'; max_s?: number }
  | { op: 'crash' }
  | { op: 'recover' };

/** An operation's result: the session's JSON (fields by operation; read loosely). */
export type ConaOpResult = Record<string, unknown>;

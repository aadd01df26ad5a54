/**
 * Plain-data types of the SRCMap lab's live session, `srcmap` (wasm-core/src/srcmap/lab/; the
 * snapshot, ops and the "power" view are pinned in issue 18's COMMON18.md): its configuration
 * (policy, level, replica space, interval, rate scale, history), the snapshot the page draws
 * (the disks with their power state, the volumes with where each is served and replicated, the
 * last minute's I/O per edge, the power now, the totals, recent events), the operations and
 * their results. The page reads every field loosely (srcmapReadout.ts, mapLayout.ts): a field
 * the session lacks shows as a dash, never as a crash.
 */

/** The session's configuration (ranges, units, help and choices: the schema, wasm-core/dist/sessions.json). */
export interface SrcmapConfig {
  /** "srcmap", "baseline-on", "caching-1", "caching-2", "replication". */
  policy: string;
  /** Table 3.3(a)'s capacity level L0..L4 (live: applies at the next decision, taken at once). */
  level: number;
  /** Replica space per disk, % of the volume (§3.6.1's budget). */
  replica_pct: number;
  /** The consolidation interval, hours. */
  interval_h: number;
  /** Scales the workload's rate and the capacities alike. */
  rate_scale: number;
  /** Days of history before the evaluated day (the working sets sampled). */
  history_days: number;
  /** The mid-interval re-trigger. */
  retrigger: boolean;
}

/** A lesson's live configuration: the fields, and a script of operations. */
export type SrcmapLiveConfig = SrcmapConfig & { script?: SrcmapOp[] };

/** A disk's power state as the snapshot names it. */
export type DiskState = 'spinning' | 'idle' | 'standby' | 'spinning-up';

export interface SrcmapDisk {
  /** "D0".."D7" for the primaries, "C0", "C1" for the cache disks. */
  id: string;
  /** The volume whose primary it holds ("" for a cache disk). */
  volume: string;
  model: string;
  kind: 'primary' | 'cache' | string;
  state: DiskState | string;
  /** In the policy's chosen set this interval. */
  active: boolean;
  /** I/Os it served in the last whole minute, per second. */
  iops: number;
  spin_ups: number;
  /** I/Os served so far (incl. sync I/O and copy-ins). */
  served: number;
  /** Read misses it served (as a primary, for a replica that lacked the block). */
  misses: number;
  watts: number;
}

export interface SrcmapVolume {
  id: string;
  name: string;
  /** Requests in the last whole minute, per second. */
  iops: number;
  /** The disk index serving each sub-volume now. */
  serving: number[];
  /** Disk indices holding a replica of the volume's working set. */
  replicas: number[];
  dirty_extents: number;
}

/** The last whole minute's I/O from a volume to a disk, per second. */
export interface SrcmapFlow {
  volume: number | string;
  disk: number | string;
  iops: number;
}

export interface SrcmapInterval {
  index: number;
  start_h: number;
  /** Disks the decision chose to keep spinning. */
  planned_active: number;
  predicted_iops: number;
  capacity_iops: number;
  load_iops: number;
  remaps: number;
}

export interface SrcmapPower {
  /** The last whole minute's system watts (Table 3.3(b) + spin-up surcharges + cache disks). */
  watts: number;
  all_on_watts: number;
  standby_watts: number;
  /** Eq. 3.1 at the current load. */
  ideal_watts: number;
  /** Average so far today. */
  avg_watts: number;
  /** Saved against all-on so far, %. */
  saved_pct: number;
}

export interface SrcmapTotals {
  requests: number;
  reads: number;
  writes: number;
  misses: number;
  sync_ios: number;
  remaps: number;
  spin_ups: number;
  /** Requests that waited for a spin-up. */
  spinup_waits: number;
  over_10ms_pct: number;
  over_100ms_pct: number;
}

export type SrcmapEventKind = 'spin-up' | 'spin-down' | 'remap' | 'retrigger' | 'interval' | 'miss';

export interface SrcmapEvent {
  t_h: number;
  kind: SrcmapEventKind | string;
  /** A disk index (null, -1 or absent: none). */
  disk?: number | string | null;
  /** A volume index (null, -1 or absent: none). */
  volume?: number | string | null;
  detail: string;
}

export interface SrcmapSnapshot {
  t_ns: number;
  /** Hours into the evaluated day, 0..24. */
  t_h: number;
  done: boolean;
  policy: string;
  level: number;
  interval_h: number;
  workload: 'generated' | 'trace' | string;
  interval: SrcmapInterval | null;
  /** Primaries D0-D7, then the cache disks. */
  disks: SrcmapDisk[];
  volumes: SrcmapVolume[];
  flows: SrcmapFlow[];
  power: SrcmapPower;
  totals: SrcmapTotals;
  /** The last 30, oldest first. */
  events: SrcmapEvent[];
  /** Why the day stopped early (a trace the session could not go on with), when it did. */
  error?: string;
}

export type SrcmapOp =
  | { op: 'run_to'; hour: number }
  | { op: 'locate'; volume: number; offset_mb: number }
  | { op: 'load_trace'; csv: string; history_h: number };

/** `locate`'s answer. */
export interface LocateResult {
  volume: number | string;
  extent: number;
  primary: number;
  serving: number;
  replicas: number[];
  in_working_set: boolean;
  dirty: boolean;
  latest_on: number[];
}

/** `load_trace`'s answer. */
export interface LoadTraceResult {
  volumes: number;
  requests: number;
  /** Hours the trace spans, and the hours of it taken as history. */
  span_h: number;
  history_h: number;
}

/** An operation's result: the session's JSON (fields by operation; read loosely). */
export type SrcmapOpResult = Record<string, unknown>;

/** The "power" view: one row per elapsed minute, and the spin-ups. */
export interface PowerSeries {
  t_h: ArrayLike<number>;
  watts: ArrayLike<number>;
  spinning: ArrayLike<number>;
  load_iops: ArrayLike<number>;
  ideal_watts: ArrayLike<number>;
  spin_up_h: ArrayLike<number>;
  spin_up_disk: ArrayLike<number>;
  /** Each spin-up's cause: 0 planned (a decision), 1 a read miss, 2 other I/O. */
  spin_up_cause: ArrayLike<number>;
}

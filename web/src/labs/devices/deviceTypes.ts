/**
 * Plain-data types of the Devices lab's two live sessions, flash and disk: configurations and
 * snapshots as the core writes them (wasm-core/src/devicelab/lab/, docs/devices.md).
 */

/** The Devices lab's flash session configuration (docs/devices.md); every field optional. */
export interface FlashConfig {
  /** Mechanism and timings; default `intel-x25m`. */
  profile?: 'intel-x25m' | 'intel-x25e' | 'sandisk-cf-4gb';
  /** Erase blocks shown, 8 … 128 (default 32). */
  blocks?: number;
  /** Pages per erase block in the view, 4 … 64 (default 16). */
  pages_per_block?: number;
  /** Spare pages over logical pages, 0.05 … 0.5 (default 0.25), beyond each chip's reserve. */
  overprovision?: number;
  /** Host write pattern (default `random`). */
  workload?: 'sequential' | 'random' | 'semi-random';
  /** Append streams for `semi-random`, 1 … 64 (default 4). */
  streams?: number;
  /** Host writes outstanding, 1 … 32 (default 1). */
  queue_depth?: number;
  /** Start with every logical page written once: a used device (default false). */
  prefill?: boolean;
}

/**
 * An erase block's role: `free`, `host` (open for host writes), `gc` (open for collector
 * copies), `full` (closed), `data` / `update` (block-mapped FTL), `erasing`.
 */
export type FlashBlockRole = 'free' | 'host' | 'gc' | 'full' | 'data' | 'update' | 'erasing';

export interface FlashBlock {
  id: number;
  chip: number;
  role: FlashBlockRole;
  erases: number;
  valid: number;
  /** One character per page: `.` erased (free), `v` valid, `x` invalid (stale). */
  pages: string;
}

/** The live flash session's snapshot (FlashSession::snapshot, docs/devices.md). */
export interface FlashSnapshot {
  time_ns: number;
  profile: string;
  ftl: string;
  /** The host's write pattern now. */
  workload?: FlashConfig['workload'];
  chips: number;
  pages_per_block: number;
  page_bytes: number;
  logical_pages: number;
  /** The configured spare over logical pages (page-mapped FTL), beyond each chip's reserve; null for the block-mapped FTL. */
  overprovision: number | null;
  blocks: FlashBlock[];
  /** `victim` is the block being collected (-1 or absent: none). */
  gc: { active: boolean; victim?: number | null };
  /** What happened since the previous snapshot (each list capped at 256 entries). */
  recent: {
    /** Host page programs [block, page]. */
    writes: Array<[number, number]>;
    /** Collector copies [from_block, from_page, to_block, to_page]. */
    moves: Array<[number, number, number, number]>;
    /** Erased blocks. */
    erased: number[];
  };
  counters: {
    host_writes: number;
    host_bytes: number;
    media_bytes: number;
    write_amplification: number;
    erases: number;
    gc_moves: number;
    gc_stalls: number;
    gc_stall_ms: number;
    queue_depth: number;
    /** Over the most recent 200 host writes. */
    host_mb_s: number;
    /** Over the most recent 200 host writes. */
    mean_write_us: number;
    joules: number;
  };
}

/** The Devices lab's disk session configuration (docs/devices.md); every field optional. */
export interface DiskConfig {
  /** Default `disk-7200`; fixed once the session runs. */
  profile?: 'disk-7200' | 'disk-10k' | 'disk-5400-laptop';
  /** Default `random`. */
  workload?: 'random' | 'sequential';
  /** Poisson reads per second, 0 … 2000 (default 60; 0 leaves the disk idle). */
  rate_per_s?: number;
  /** Default `fifo`. */
  scheduler?: 'fifo' | 'sstf';
  /** Idle seconds before standby, 0 (never) … 600 (default 10). */
  spin_down_s?: number;
  /** Request size, 1 … 1024 KB (default 4). */
  io_kb?: number;
}

export type DiskPowerState = 'active' | 'idle' | 'standby' | 'spinning-up';

/** The live disk session's snapshot (DiskSession::snapshot, docs/devices.md). */
export interface DiskSnapshot {
  time_ns: number;
  profile: string;
  rpm: number;
  cylinders: number;
  /** The head's cylinder (interpolated during a seek). */
  head: number;
  /** Platter rotation in turns, in [0, 1). */
  angle: number;
  state: DiskPowerState;
  watts: number;
  /** The request in service, or null. */
  current: { cylinder: number; sector_angle: number; phase: 'seek' | 'rotate' | 'transfer'; phase_end_ns: number } | null;
  /** At most 64 waiting requests, oldest first. */
  queue: Array<{ cylinder: number; sector_angle: number; arrival_ns: number }>;
  /** Latency and service breakdown since `window_start_ns` (start or last reconfigure); energy and spin-ups over the run. */
  counters: {
    window_start_ns: number;
    completed: number;
    mean_ms: number;
    p99_ms: number;
    mean_seek_ms: number;
    mean_rotate_ms: number;
    mean_transfer_ms: number;
    spin_ups: number;
    joules: number;
    avg_watts: number;
    standby_s: number;
  };
}

/** A devices-lab live scenario: which view it drives and that view's configuration. */
export type DevicesLiveConfig = ({ view: 'flash' } & FlashConfig) | ({ view: 'disk' } & DiskConfig);

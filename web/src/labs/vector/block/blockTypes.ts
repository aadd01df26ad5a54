/**
 * The `vector.block` session's configuration, snapshot and `timeline` columns (the core's
 * vecio/lab/block_session.cc; shapes pinned in the issue's contract).
 */

export interface BlockConfig {
  host: 'atom-d510' | 'xeon';
  scheduler: 'cfq' | 'noop';
  coalescing: 'none' | 'napi' | 'defer';
  defer_us: number;
  iodepth: number;
  block_bytes: '512' | '1024' | '2048' | '4096' | '8192' | '16384';
}

export interface BlockSnapshot {
  t_ns: number;
  iops: number;
  completions_per_s: number;
  interrupts_per_s: number;
  completions_per_irq: number;
  /** Busy fraction of each core over the recent window. */
  cpu_busy: number[];
  device_queue: number;
  ncq_depth: number;
  issue_us: { median: number; min: number };
  /** Medians over the recent window (µs): Q→G, G→I, I→D, D→Q (D back to the next Q). */
  phases_us: { QG: number; GI: number; ID: number; DQ: number };
  /** Inter-completion gaps over the recent window. */
  gap_hist: { bin_us: number; counts: number[] };
  totals: { issued: number; completed: number; interrupts: number };
}

/** The `timeline` view: every I/O and interrupt overlapping [t_end − window, t_end]; times in ns, −1 not reached yet. */
export interface BlockTimeline {
  t_end_ns: number;
  io: Uint32Array;
  cpu: Uint8Array;
  q: Float64Array;
  g: Float64Array;
  i: Float64Array;
  d: Float64Array;
  c: Float64Array;
  irq_t: Float64Array;
  irq_n: Uint16Array;
  irq_cpu: Uint8Array;
}

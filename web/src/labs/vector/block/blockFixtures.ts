/** Snapshots and timelines of the `vector.block` session's shape, for the view's tests. */
import type { BlockSnapshot, BlockTimeline } from './blockTypes';

export function blockSnapshot(over: Partial<BlockSnapshot> = {}): BlockSnapshot {
  return {
    t_ns: 60_000_000,
    iops: 19_040,
    completions_per_s: 19_040,
    interrupts_per_s: 19_040,
    completions_per_irq: 1,
    cpu_busy: [0.98, 0.12],
    device_queue: 33,
    ncq_depth: 31,
    issue_us: { median: 40.2, min: 33.1 },
    phases_us: { QG: 6.1, GI: 4.9, ID: 11.8, DQ: 17.4 },
    gap_hist: { bin_us: 10, counts: [0, 3, 4, 2, 1, 30, 40, 12, 3, 0, 1, 0] },
    totals: { issued: 1200, completed: 1136, interrupts: 1136 },
    ...over,
  };
}

/**
 * A 1 ms window ending at 2 ms: three I/Os on cpu 0 (one whole, one waiting on the device, one still
 * in its issue path) and two interrupts, the second handling two completions.
 */
export function blockTimeline(): BlockTimeline {
  return {
    t_end_ns: 2_000_000,
    io: Uint32Array.from([7, 8, 9]),
    cpu: Uint8Array.from([0, 0, 1]),
    q: Float64Array.from([950_000, 1_200_000, 1_900_000]),
    g: Float64Array.from([956_000, 1_206_000, -1]),
    i: Float64Array.from([961_000, 1_211_000, -1]),
    d: Float64Array.from([973_000, 1_223_000, -1]),
    c: Float64Array.from([1_400_000, -1, -1]),
    irq_t: Float64Array.from([1_400_000, 1_700_000]),
    irq_n: Uint16Array.from([1, 2]),
    irq_cpu: Uint8Array.from([0, 1]),
  };
}

/**
 * Plain-data types of the Queues lab's live session: its snapshot and configuration, as the
 * core writes them (wasm-core/src/queues/lab/session.h).
 */

/** The live queue's snapshot (queues/lab/session.h). */
export interface QueueSnapshot {
  version: number;
  now_ns: number;
  config: {
    servers: number;
    arrival_rate_per_s: number;
    service_us: number;
    service: 'exponential' | 'deterministic';
    queue_limit: number;
  };
  servers: Array<{ busy: boolean; id?: number; arrival_ns?: number; start_ns?: number; done_ns?: number }>;
  queue_length: number;
  /** [id, arrival_ns] of the oldest waiting jobs (at most 200). */
  queue: Array<[number, number]>;
  recent: Array<{ id: number; server: number; arrival_ns: number; start_ns: number; done_ns: number }>;
  counters: {
    window_start_ns: number;
    arrived: number;
    completed: number;
    dropped: number;
    throughput_per_s: number;
    mean_response_us: number;
    p50_response_us: number;
    p99_response_us: number;
    mean_in_system: number;
    littles_x_times_r: number;
    utilisation: number;
  };
  theory: { rho: number; stable: boolean; model?: string; mean_response_us?: number; mean_in_system?: number };
}

export type LiveConfig = Partial<QueueSnapshot['config']>;

/**
 * Plain-data types shared by the model, viz and app layers: what the C++ core returns
 * (experiment schemas, results, live-session snapshots). They mirror the JSON written by
 * wasm-core (experiments/result.h, base/params.h, queues/session.h).
 */

export type ParamType = 'int' | 'real' | 'choice' | 'bool';
export type ParamValue = number | string | boolean;

export interface ParamSpec {
  name: string;
  type: ParamType;
  default: ParamValue;
  /** Inclusive range, for int and real. */
  min?: number;
  max?: number;
  /** Allowed values, for choice. */
  choices?: string[];
  unit: string;
  help: string;
}

export interface ExperimentInfo {
  id: string;
  lab: string;
  title: string;
  summary: string;
  /** The paper figure/table or theory the experiment reproduces. */
  reference: string;
  params: ParamSpec[];
}

export type SeriesKind = 'measured' | 'theory' | 'paper';

export interface Series {
  name: string;
  kind: SeriesKind;
  x_label: string;
  y_label: string;
  points: Array<[number, number]>;
}

export interface Tolerance {
  rel?: number;
  abs?: number;
}

export interface ExperimentResult {
  id: string;
  title: string;
  params: Record<string, ParamValue>;
  seed: number;
  scale: { factor: number; note: string };
  metrics: Record<string, number>;
  /** Values the experiment is meant to reproduce (a paper's or the theory's). */
  anchors: Record<string, number>;
  tolerances: Record<string, Tolerance>;
  series: Series[];
  notes: string[];
}

/** A finished run as the model keeps it: the parsed result and the core's exact bytes. */
export interface RunRecord {
  result: ExperimentResult;
  json: string;
  csv: string;
}

export interface CoreError {
  ok: false;
  code: string;
  message: string;
}

/** The live queue's snapshot (queues/session.h). */
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

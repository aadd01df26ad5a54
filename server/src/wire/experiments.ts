/**
 * The wire contract of the experiments, declared once for the server (server/src/core.ts,
 * repro, the HTTP API) and the web app (web/src/model/types.ts re-exports it): an experiment's
 * parameter schema and description, its result (wasm-core/src/registry result.h's JSON, byte
 * for byte what `npm run repro -- <id> --format json` prints), and the core's error value.
 * Pure types: no Node or DOM imports (the web bundles it through its `@wire/*` alias).
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

/** Fitted: a model constant was calibrated so this number comes out. Emergent: nothing was. */
export type AnchorBasis = 'fitted' | 'emergent';

export interface AnchorNote {
  basis: AnchorBasis;
  /** Where the number comes from (a paper's section, table or figure, or a theory). */
  source: string;
  /** Fitted: the constant calibrated to it; emergent: what produces it. */
  why: string;
  /** The model's reason when the metric lies outside the tolerance ('' when none is known). */
  miss: string;
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
  /** One per anchor: fitted or emergent, its source, and why it misses when it does. */
  anchor_notes: Record<string, AnchorNote>;
  series: Series[];
  notes: string[];
}

export interface CoreError {
  ok: false;
  code: string;
  message: string;
}

/**
 * A scenario is what a link reproduces: an experiment, its parameters as text (exactly as a
 * form or a URL holds them) and a seed. This module converts between scenarios and URL query
 * strings: ?exp=queues.mm1&seed=7&servers=4 (only parameters that differ from their defaults
 * are written; `exp` and `seed` are reserved names).
 */
import type { ExperimentInfo, ParamSpec, ParamValue } from './types';

export interface Scenario {
  experiment: string;
  /** name -> text, for every parameter the user set (absent: the default). */
  params: Record<string, string>;
  seed: string;
}

export const DEFAULT_SEED = '1';
const RESERVED = new Set(['exp', 'seed', 'run']);

export function defaultText(p: ParamSpec): string {
  return String(p.default);
}

/** Reads a scenario from a query string; null when it names no experiment. */
export function scenarioFromSearch(search: string): Scenario | null {
  const q = new URLSearchParams(search);
  const experiment = q.get('exp');
  if (!experiment) return null;
  const params: Record<string, string> = {};
  for (const [k, v] of q) if (!RESERVED.has(k)) params[k] = v;
  return { experiment, params, seed: q.get('seed') ?? DEFAULT_SEED };
}

/** Writes a scenario as a query string, leaving out parameters equal to their defaults. */
export function scenarioToSearch(s: Scenario, info?: ExperimentInfo): string {
  const q = new URLSearchParams();
  q.set('exp', s.experiment);
  q.set('seed', s.seed);
  for (const [k, v] of Object.entries(s.params)) {
    const spec = info?.params.find((p) => p.name === k);
    if (spec && sameValue(spec, v, spec.default)) continue;
    q.set(k, v);
  }
  return '?' + q.toString();
}

function sameValue(spec: ParamSpec, text: string, value: ParamValue): boolean {
  if (spec.type === 'int' || spec.type === 'real') return text.trim() !== '' && Number(text) === value;
  return text === String(value);
}

/** The (name, text) pairs the core's resolveParamStrings takes, in schema order. */
export function paramPairs(s: Scenario): Array<[string, string]> {
  return Object.entries(s.params);
}

/** A scenario from typed values (a lesson's JSON), as text. */
export function scenarioFromValues(experiment: string, params: Record<string, ParamValue>, seed: number | string): Scenario {
  const text: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) text[k] = String(v);
  return { experiment, params: text, seed: String(seed) };
}

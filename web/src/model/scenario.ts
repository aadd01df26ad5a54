/**
 * A scenario is what a link reproduces: an experiment, its parameters as text (exactly as a
 * form or a URL holds them) and a seed. This module converts between scenarios and URL query
 * strings: ?exp=queues.mm1&seed=7&servers=4 (only parameters that differ from their defaults
 * are written; `exp` and `seed` are reserved names).
 *
 * A lab page's whole shareable state rides in the same query string (LabUrlState): besides the
 * experiment, `scenario=<id>` (the lesson scenario last loaded), `step=<n>` (the guided tour's
 * step, 1-based), `present=1` (presentation mode), `student=<n>` (the exercises' variant seed,
 * app/studentSeed.ts, kept as written) and `live.<field>=<value>` for each live-view field the
 * user changed from what the scenario (or the view's default) set. Those names, and every
 * `live.` name, are reserved too.
 */
import type { LiveScenarioConfig } from './lessons';
import { nounOf, sessionForConfig, sessionOfView, sessionsOf, viewsOf } from './session/schema';
import { configFromText, configToText } from './session/validate';
import type { ExperimentInfo, ParamSpec, ParamValue } from './types';

export interface Scenario {
  experiment: string;
  /** name -> text, for every parameter the user set (absent: the default). */
  params: Record<string, string>;
  seed: string;
}

export const DEFAULT_SEED = '1';
const RESERVED = new Set(['exp', 'seed', 'run', 'scenario', 'step', 'present', 'student']);
const LIVE_PREFIX = 'live.';

function reserved(name: string): boolean {
  return RESERVED.has(name) || name.startsWith(LIVE_PREFIX);
}

export function defaultText(p: ParamSpec): string {
  return String(p.default);
}

/** Reads a scenario from a query string; null when it names no experiment. */
export function scenarioFromSearch(search: string): Scenario | null {
  const q = new URLSearchParams(search);
  const experiment = q.get('exp');
  if (!experiment) return null;
  const params: Record<string, string> = {};
  for (const [k, v] of q) if (!reserved(k)) params[k] = v;
  return { experiment, params, seed: q.get('seed') ?? DEFAULT_SEED };
}

/** Writes a scenario as a query string, leaving out parameters equal to their defaults. */
export function scenarioToSearch(s: Scenario, info?: ExperimentInfo): string {
  const q = new URLSearchParams();
  writeScenario(q, s, info);
  return '?' + q.toString();
}

function writeScenario(q: URLSearchParams, s: Scenario, info?: ExperimentInfo): void {
  q.set('exp', s.experiment);
  q.set('seed', s.seed);
  for (const [k, v] of Object.entries(s.params)) {
    const spec = info?.params.find((p) => p.name === k);
    if (spec && sameValue(spec, v, spec.default)) continue;
    q.set(k, v);
  }
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

/** Everything a lab page keeps in its URL. */
export interface LabUrlState {
  /** The experiment panel's scenario (null: the URL names none). */
  experiment: Scenario | null;
  /** The lesson scenario last loaded, by id (null: none). */
  scenario: string | null;
  /** The guided tour's step, 1-based (null: not touring). */
  step: number | null;
  /** Presentation mode: the lesson out of the way, the views full width, large chart text. */
  present: boolean;
  /** Live-view fields the user changed, as text (name -> text), from `live.<name>=<text>`. */
  live: Record<string, string>;
  /** The exercises' student seed as written (app/studentSeed.ts reads and checks it), or null. */
  student: string | null;
  /** What could not be read, one message per problem (the rest of the state still applies). */
  errors: string[];
}

export const EMPTY_LAB_STATE: LabUrlState = { experiment: null, scenario: null, step: null, present: false, live: {}, student: null, errors: [] };

const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Reads a lab page's state from its query string; a bad value is left out and named in `errors`. */
export function labStateFromSearch(search: string): LabUrlState {
  const q = new URLSearchParams(search);
  const errors: string[] = [];
  let scenario = q.get('scenario');
  if (scenario !== null && !ID.test(scenario)) {
    errors.push(`scenario '${scenario}' in the link is not a scenario id (lower-case words joined by hyphens)`);
    scenario = null;
  }
  const stepText = q.get('step');
  let step: number | null = null;
  if (stepText !== null) {
    if (/^\d{1,4}$/.test(stepText) && Number(stepText) >= 1) step = Number(stepText);
    else errors.push(`step '${stepText}' in the link must be a whole number from 1`);
  }
  const presentText = q.get('present');
  if (presentText !== null && presentText !== '0' && presentText !== '1') errors.push(`present '${presentText}' in the link must be 1 or 0`);
  let student = q.get('student');
  if (student !== null && !/^\d{1,6}$/.test(student.trim())) {
    // The exercises read the same rule (app/studentSeed.ts); a bad one would silently fall back.
    errors.push(`student '${student}' in the link must be a whole number from 0 to 999999`);
    student = null;
  }
  const live: Record<string, string> = {};
  for (const [k, v] of q) if (k.startsWith(LIVE_PREFIX) && k.length > LIVE_PREFIX.length) live[k.slice(LIVE_PREFIX.length)] = v;
  return { experiment: scenarioFromSearch(search), scenario, step, present: presentText === '1', live, student, errors };
}

/** Writes a lab page's state as a query string ('' when there is nothing to keep). */
export function labStateToSearch(s: Omit<LabUrlState, 'errors'>, info?: ExperimentInfo): string {
  const q = new URLSearchParams();
  if (s.student !== null) q.set('student', s.student);
  if (s.step !== null) q.set('step', String(s.step));
  else if (s.scenario !== null) q.set('scenario', s.scenario);
  if (s.present) q.set('present', '1');
  for (const [k, v] of Object.entries(s.live)) q.set(LIVE_PREFIX + k, v);
  if (s.experiment) writeScenario(q, s.experiment, info);
  const text = q.toString();
  return text ? '?' + text : '';
}

/** The fields of `config` whose values differ from `base` (arrays and objects compared by value). */
export function changedFields(config: Record<string, unknown>, base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) if (JSON.stringify(v) !== JSON.stringify(base[k])) out[k] = v;
  return out;
}

/** The view a live config names in a lab with several sessions (the lab's first when it names none). */
function viewOf(lab: string, c: LiveScenarioConfig | undefined): string {
  const views = viewsOf(lab);
  return c && typeof c.view === 'string' && views.includes(c.view) ? c.view : (views[0] ?? '');
}

/**
 * The live view's configuration a link describes: the loaded scenario's live configuration
 * (`base`, if any) with the link's `live.` fields over it, typed by the session's schema; null
 * when neither sets anything. In a lab with several sessions (the Devices lab) `live.view`
 * picks the tab (a different tab from the scenario's starts from that view's defaults).
 */
export function liveFromUrl(lab: string, base: LiveScenarioConfig | undefined, text: Record<string, string>): { config: Record<string, unknown> | null; errors: string[] } {
  if (Object.keys(text).length === 0) return { config: base ? { ...base } : null, errors: [] };
  if (sessionsOf(lab).length === 0) return { config: base ? { ...base } : null, errors: [`this lab has no live view: the link's live.${Object.keys(text)[0]} is ignored`] };
  const errors: string[] = [];
  const rest = { ...text };
  let start: Record<string, unknown> = { ...(base ?? {}) };
  const views = viewsOf(lab);
  if (views.length > 0) {
    let view = viewOf(lab, base);
    if ('view' in rest) {
      const v = rest.view!;
      delete rest.view;
      if (views.includes(v)) view = v;
      else errors.push(`live.view=${v} in the link must be ${views.join(' or ')}`);
    }
    if (view !== viewOf(lab, base)) start = {};
    start.view = view;
  }
  const info = sessionForConfig(lab, start)!;
  const typed = configFromText(info, rest, nounOf(info));
  return { config: { ...start, ...typed.config }, errors: [...errors, ...typed.errors] };
}

/**
 * The link's `live.` fields after the user changed the live view: `changed` holds the fields
 * that now differ from the request the view last took (the scenario's configuration with the
 * link's fields `text` over it), so the result is `text` with `changed` written over it. In a
 * lab with several sessions `changed.view` names the tab; a tab other than the one `text` and
 * the scenario chose starts afresh.
 */
export function liveTextAfterEdit(lab: string, base: LiveScenarioConfig | undefined, text: Record<string, string>, changed: Record<string, unknown>): Record<string, string> {
  const views = viewsOf(lab);
  if (views.length === 0) {
    const info = sessionOfView(lab, undefined);
    return { ...text, ...(info ? configToText(info, changed) : {}) };
  }
  const scenarioView = viewOf(lab, base);
  const before = text.view !== undefined && views.includes(text.view) ? text.view : scenarioView;
  const view = typeof changed.view === 'string' && views.includes(changed.view) ? changed.view : before;
  const info = sessionOfView(lab, view)!;
  const out: Record<string, string> = { ...(view === before ? text : {}), ...configToText(info, changed) };
  delete out.view;
  return view === scenarioView ? out : { view, ...out };
}

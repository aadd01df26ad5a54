/**
 * Lessons as data: parses a lab's lesson folder (docs/lessons.md) into blocks of Markdown,
 * scenario cards and exercises, checks that every reference resolves, picks a student's
 * variant of an exercise (its own numbers, from the ranges the exercise declares), and judges
 * answers. Pure functions; the app renders the blocks and runs the checks through the core.
 */
import { evaluate } from './expr';
import type { LiveConfigValues } from './session/schema';
import { checkLiveScenario } from './session/validate';
import type { ParamValue, Tolerance } from './types';

export interface LessonScenario {
  id: string;
  title: string;
  description: string;
  seed: number;
  /** An experiment scenario... */
  experiment?: string;
  params?: Record<string, ParamValue>;
  /**
   * ...or a live-view scenario: the lab's session's configuration (checked against its schema,
   * model/session), with `view` naming the session in a lab with several and `script` the
   * operations a session with a script runs first.
   */
  live?: LiveScenarioConfig;
}

export type LiveScenarioConfig = LiveConfigValues;

export interface ExerciseOption {
  label: string;
  value: number;
}

export interface ExerciseCheck {
  metric: string;
  scenario?: string;
  experiment?: string;
  params?: Record<string, ParamValue>;
  seed?: number;
}

/** A number that varies between students: one of `values`, also passed to the check as `param`. */
export interface ExerciseVariable {
  values: number[];
  param?: string;
}

export interface Exercise {
  id: string;
  title: string;
  prompt: string;
  kind: 'numeric' | 'choice';
  check: ExerciseCheck;
  tolerance?: Tolerance;
  unit?: string;
  options?: ExerciseOption[];
  /** A number, or (with variants) an expression in the variables: the worked answer. */
  solution: number | string;
  explanation: string;
  /** Shown after a wrong answer: a nudge towards the method, never the value. */
  hint: string;
  /** Variables whose values differ between students; `{name}` and `{= expr}` in the texts. */
  variants?: Record<string, ExerciseVariable>;
}

/** An exercise with one student's numbers filled in: every text final, the solution a number. */
export interface ExerciseInstance extends Exercise {
  solution: number;
  vars: Record<string, number>;
}

export type LessonBlock =
  | { kind: 'markdown'; text: string }
  | { kind: 'scenario'; scenario: LessonScenario }
  | { kind: 'exercise'; exercise: Exercise };

export interface Lesson {
  lab: string;
  title: string;
  blocks: LessonBlock[];
  scenarios: LessonScenario[];
  exercises: Exercise[];
}

const DIRECTIVE = /^\{\{\s*(scenario|exercise)\s+([a-z0-9-]+)\s*\}\}\s*$/;
const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function checkScenario(x: unknown, errors: string[], lab: string): LessonScenario | null {
  if (!isObject(x) || typeof x.id !== 'string') {
    errors.push('a scenario must be an object with a string id');
    return null;
  }
  const where = `scenario '${x.id}'`;
  if (!ID.test(x.id)) errors.push(`${where}: id must be lower-case words joined by hyphens`);
  if (typeof x.title !== 'string' || typeof x.description !== 'string') errors.push(`${where}: needs a title and a description`);
  if (typeof x.seed !== 'number' || !Number.isInteger(x.seed) || x.seed < 0) errors.push(`${where}: seed must be a non-negative integer`);
  const hasExp = typeof x.experiment === 'string';
  const hasLive = isObject(x.live);
  if (hasExp === hasLive) errors.push(`${where}: needs exactly one of "experiment" or "live"`);
  if (x.params !== undefined && !isObject(x.params)) errors.push(`${where}: params must be an object`);
  if (hasLive) errors.push(...checkLiveScenario(lab, x.live as LiveConfigValues, where));
  return x as unknown as LessonScenario;
}

function checkExercise(x: unknown, errors: string[]): Exercise | null {
  if (!isObject(x) || typeof x.id !== 'string') {
    errors.push('an exercise must be an object with a string id');
    return null;
  }
  const where = `exercise '${x.id}'`;
  const before = errors.length;
  if (!ID.test(x.id)) errors.push(`${where}: id must be lower-case words joined by hyphens`);
  for (const k of ['title', 'prompt', 'explanation']) {
    if (typeof x[k] !== 'string') errors.push(`${where}: needs a string "${k}"`);
  }
  if (x.kind !== 'numeric' && x.kind !== 'choice') errors.push(`${where}: kind must be "numeric" or "choice"`);
  if (typeof x.hint !== 'string' || x.hint.trim() === '') errors.push(`${where}: needs a "hint" for wrong answers`);
  const variants = x.variants;
  if (variants !== undefined) {
    if (!isObject(variants) || Object.keys(variants).length === 0) {
      errors.push(`${where}: variants must be an object of variables`);
    } else {
      for (const [name, v] of Object.entries(variants)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) errors.push(`${where}: variable name '${name}' must be a word`);
        if (!isObject(v) || !Array.isArray(v.values) || v.values.length === 0 || !v.values.every((n) => typeof n === 'number' && Number.isFinite(n))) {
          errors.push(`${where}: variable '${name}' needs "values": a non-empty array of numbers`);
        } else if (v.param !== undefined && typeof v.param !== 'string') {
          errors.push(`${where}: variable '${name}': param must be a parameter name`);
        }
      }
    }
  }
  if (typeof x.solution !== 'number' && !(typeof x.solution === 'string' && variants !== undefined)) {
    errors.push(`${where}: solution must be a number (or, with variants, an expression)`);
  } else if (errors.length === before) {
    try {
      instantiate(x as unknown as Exercise, 0);
    } catch (e) {
      errors.push(`${where}: ${(e as Error).message}`);
    }
  }
  const check = x.check;
  if (!isObject(check) || typeof check.metric !== 'string') {
    errors.push(`${where}: check needs a metric`);
  } else if ((typeof check.scenario === 'string') === (typeof check.experiment === 'string')) {
    errors.push(`${where}: check names exactly one of "scenario" or "experiment"`);
  }
  if (x.kind === 'numeric') {
    const t = x.tolerance;
    if (!isObject(t) || (typeof t.rel !== 'number' && typeof t.abs !== 'number')) {
      errors.push(`${where}: a numeric exercise needs a tolerance {"rel": r} or {"abs": a}`);
    }
  }
  if (x.kind === 'choice') {
    const opts = x.options;
    if (!Array.isArray(opts) || opts.length < 2 || !opts.every((o) => isObject(o) && typeof o.label === 'string' && typeof o.value === 'number')) {
      errors.push(`${where}: a choice exercise needs at least two options {"label", "value"}`);
    }
  }
  return x as unknown as Exercise;
}

/** Parses a lesson folder's three files. `errors` lists every problem found (empty: valid). */
export function parseLesson(
  lab: string,
  markdown: string,
  scenariosJson: unknown,
  exercisesJson: unknown,
): { lesson: Lesson; errors: string[] } {
  const errors: string[] = [];
  const scenarios: LessonScenario[] = [];
  const exercises: Exercise[] = [];
  if (!Array.isArray(scenariosJson)) errors.push('scenarios.json must hold an array');
  else for (const s of scenariosJson) { const v = checkScenario(s, errors, lab); if (v) scenarios.push(v); }
  if (!Array.isArray(exercisesJson)) errors.push('exercises.json must hold an array');
  else for (const e of exercisesJson) { const v = checkExercise(e, errors); if (v) exercises.push(v); }
  for (const [what, list] of [['scenario', scenarios], ['exercise', exercises]] as const) {
    const seen = new Set<string>();
    for (const item of list) {
      if (seen.has(item.id)) errors.push(`${what} id '${item.id}' is used twice`);
      seen.add(item.id);
    }
  }
  for (const e of exercises) {
    if (e.check?.scenario && !scenarios.some((s) => s.id === e.check.scenario && s.experiment)) {
      errors.push(`exercise '${e.id}': check names scenario '${e.check.scenario}', which is not an experiment scenario`);
    }
  }

  const blocks: LessonBlock[] = [];
  let text: string[] = [];
  const flush = () => {
    const t = text.join('\n').trim();
    if (t) blocks.push({ kind: 'markdown', text: t });
    text = [];
  };
  let title = '';
  markdown.split('\n').forEach((line, i) => {
    if (!title && line.startsWith('# ')) title = line.slice(2).trim();
    const m = DIRECTIVE.exec(line.trim());
    if (!m) {
      if (/\{\{/.test(line)) errors.push(`lesson.md line ${i + 1}: malformed directive '${line.trim()}'`);
      text.push(line);
      return;
    }
    flush();
    const [, kind, id] = m;
    if (kind === 'scenario') {
      const s = scenarios.find((x) => x.id === id);
      if (s) blocks.push({ kind: 'scenario', scenario: s });
      else errors.push(`lesson.md line ${i + 1}: no scenario '${id}' in scenarios.json`);
    } else {
      const e = exercises.find((x) => x.id === id);
      if (e) blocks.push({ kind: 'exercise', exercise: e });
      else errors.push(`lesson.md line ${i + 1}: no exercise '${id}' in exercises.json`);
    }
  });
  flush();
  if (!title) errors.push('lesson.md needs a "# Title" heading');
  return { lesson: { lab, title, blocks, scenarios, exercises }, errors };
}

/** A small, stable hash (FNV-1a, 32 bits) of a string. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The values a student gets: for `student` 0 each variable's first value (the lesson's own
 * numbers); otherwise one picked by a hash of the student, the exercise and the variable.
 */
export function variantValues(ex: Exercise, student: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, v] of Object.entries(ex.variants ?? {})) {
    out[name] = student === 0 ? v.values[0]! : v.values[hash32(`${student}/${ex.id}/${name}`) % v.values.length]!;
  }
  return out;
}

/** A number as the texts show it: integers with thousands commas, others to 4 significant digits. */
export function formatValue(x: number): string {
  if (Number.isInteger(x)) return Math.abs(x) >= 10000 ? x.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',') : x.toString();
  const t = Number(x.toPrecision(4));
  return Math.abs(t) >= 10000 ? formatValue(Math.round(t)) : t.toString();
}

/** Fills `{name}` (a variable) and `{= expr}` (an expression of the variables) in `text`. */
export function fillTemplate(text: string, vars: Record<string, number>): string {
  return text.replace(/\{=([^{}]+)\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, expr: string | undefined, name: string | undefined) => {
    if (expr !== undefined) return formatValue(evaluate(expr, vars));
    return name !== undefined && name in vars ? formatValue(vars[name]!) : whole;
  });
}

/** One student's variant of `ex`: texts filled, check parameters set, the solution computed. */
export function instantiate(ex: Exercise, student: number): ExerciseInstance {
  return instantiateWith(ex, variantValues(ex, student));
}

/** Every combination of the exercise's variable values (one, without variants). */
export function allVariants(ex: Exercise): Array<Record<string, number>> {
  let combos: Array<Record<string, number>> = [{}];
  for (const [name, v] of Object.entries(ex.variants ?? {})) {
    combos = combos.flatMap((c) => v.values.map((x) => ({ ...c, [name]: x })));
  }
  return combos;
}

/** The exercise with the given variable values. */
export function instantiateWith(ex: Exercise, vars: Record<string, number>): ExerciseInstance {
  const params = { ...(ex.check.params ?? {}) };
  for (const [name, v] of Object.entries(ex.variants ?? {})) if (v.param) params[v.param] = vars[name]!;
  const fill = (t: string) => fillTemplate(t, vars);
  return {
    ...ex,
    title: fill(ex.title),
    prompt: fill(ex.prompt),
    hint: fill(ex.hint),
    explanation: fill(ex.explanation),
    check: { ...ex.check, params },
    solution: typeof ex.solution === 'number' ? ex.solution : evaluate(ex.solution, vars),
    vars,
  };
}

/** The experiment run that checks an exercise. */
export function exerciseRun(ex: Exercise, lesson: Lesson): { experiment: string; params: Record<string, ParamValue>; seed: number } {
  if (ex.check.scenario) {
    const s = lesson.scenarios.find((x) => x.id === ex.check.scenario);
    if (!s?.experiment) throw new Error(`exercise '${ex.id}': no experiment scenario '${ex.check.scenario}'`);
    return { experiment: s.experiment, params: { ...(s.params ?? {}), ...(ex.check.params ?? {}) }, seed: s.seed };
  }
  return { experiment: ex.check.experiment!, params: ex.check.params ?? {}, seed: ex.check.seed ?? 1 };
}

/** Whether `answer` is within `tol` of the model's `metric`. */
export function judgeNumeric(answer: number, metric: number, tol: Tolerance): boolean {
  if (!Number.isFinite(answer)) return false;
  const bound = tol.rel !== undefined ? tol.rel * Math.abs(metric) : (tol.abs ?? 0);
  return Math.abs(answer - metric) <= bound;
}

/** The option the model says is right: the one whose value equals the metric. */
export function correctOption(ex: Exercise, metric: number): ExerciseOption | undefined {
  return ex.options?.find((o) => o.value === metric);
}

/** Judges an answer (a number, or a chosen option's value) against the metric. */
export function judge(ex: Exercise, answer: number, metric: number): boolean {
  if (ex.kind === 'choice') return correctOption(ex, metric)?.value === answer;
  return judgeNumeric(answer, metric, ex.tolerance ?? { rel: 0 });
}

/**
 * What the page tells a student: right, or wrong with the exercise's hint and whether a
 * numeric answer is too high or too low — never the model's value before a right answer.
 */
export type Feedback =
  | { correct: true; metric: number }
  | { correct: false; hint: string; direction: 'too high' | 'too low' | null };

export function feedback(ex: Exercise, answer: number, metric: number): Feedback {
  if (judge(ex, answer, metric)) return { correct: true, metric };
  const direction = ex.kind === 'numeric' && Number.isFinite(answer) ? (answer > metric ? 'too high' : 'too low') : null;
  return { correct: false, hint: ex.hint, direction };
}

/** Parses what a student typed: accepts "50", "50.5", "5e1", "1,000" (thousands commas). */
export function parseAnswer(text: string): number | null {
  const t = text.trim().replace(/(\d),(?=\d{3}\b)/g, '$1');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

/**
 * Lessons as data: parses a lab's lesson folder (docs/lessons.md) into blocks of Markdown,
 * scenario cards and exercises, checks that every reference resolves, and judges answers.
 * Pure functions; the app renders the blocks and runs the checks through the core.
 */
import type { LiveConfig, ParamValue, Tolerance } from './types';

export interface LessonScenario {
  id: string;
  title: string;
  description: string;
  seed: number;
  /** An experiment scenario... */
  experiment?: string;
  params?: Record<string, ParamValue>;
  /** ...or a live-view scenario. */
  live?: LiveConfig;
}

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

export interface Exercise {
  id: string;
  title: string;
  prompt: string;
  kind: 'numeric' | 'choice';
  check: ExerciseCheck;
  tolerance?: Tolerance;
  unit?: string;
  options?: ExerciseOption[];
  solution: number;
  explanation: string;
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

function checkScenario(x: unknown, errors: string[]): LessonScenario | null {
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
  return x as unknown as LessonScenario;
}

function checkExercise(x: unknown, errors: string[]): Exercise | null {
  if (!isObject(x) || typeof x.id !== 'string') {
    errors.push('an exercise must be an object with a string id');
    return null;
  }
  const where = `exercise '${x.id}'`;
  if (!ID.test(x.id)) errors.push(`${where}: id must be lower-case words joined by hyphens`);
  for (const k of ['title', 'prompt', 'explanation']) {
    if (typeof x[k] !== 'string') errors.push(`${where}: needs a string "${k}"`);
  }
  if (x.kind !== 'numeric' && x.kind !== 'choice') errors.push(`${where}: kind must be "numeric" or "choice"`);
  if (typeof x.solution !== 'number') errors.push(`${where}: solution must be a number`);
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
  else for (const s of scenariosJson) { const v = checkScenario(s, errors); if (v) scenarios.push(v); }
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

/** The experiment run that checks an exercise. */
export function exerciseRun(ex: Exercise, lesson: Lesson): { experiment: string; params: Record<string, ParamValue>; seed: number } {
  if (ex.check.scenario) {
    const s = lesson.scenarios.find((x) => x.id === ex.check.scenario);
    if (!s?.experiment) throw new Error(`exercise '${ex.id}': no experiment scenario '${ex.check.scenario}'`);
    return { experiment: s.experiment, params: s.params ?? {}, seed: s.seed };
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

/** Parses what a student typed: accepts "50", "50.5", "5e1", "1,000" (thousands commas). */
export function parseAnswer(text: string): number | null {
  const t = text.trim().replace(/(\d),(?=\d{3}\b)/g, '$1');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

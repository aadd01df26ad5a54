// One lab's lesson checks, for the per-lab files in web/src/model/lessonRuns/: its references
// resolve, every scenario runs with its stated seed, and every exercise's worked solution is
// judged correct against the model's own number.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCoreError } from './core';
import { allVariants, correctOption, exerciseRun, formatValue, instantiateWith, judge, parseLesson, type Lesson } from './lessons';
import { REPO, testCore } from './testCore';
import { sessionForConfig } from './session/schema';
import { testSession } from './session/testSessions';

const dir = `${REPO}lessons`;
/** Every lab with a lesson folder. */
export const labs = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

const has = (lab: string, f: string) => existsSync(`${dir}/${lab}/${f}`);

function load(lab: string): { lesson: Lesson; errors: string[] } {
  const read = (f: string, missing: string) => (has(lab, f) ? readFileSync(`${dir}/${lab}/${f}`, 'utf8') : missing);
  const scenarios = JSON.parse(read('scenarios.json', '[]')) as unknown;
  // A lab whose text is not written yet still has its scenarios checked and run.
  const md = has(lab, 'lesson.md')
    ? read('lesson.md', '')
    : `# ${lab}\n\n${(Array.isArray(scenarios) ? scenarios : []).map((x: { id?: string }) => `{{scenario ${x.id}}}`).join('\n')}\n`;
  return parseLesson(lab, md, scenarios, JSON.parse(read('exercises.json', '[]')));
}

// The snapshot fields the checks below read (each lab's full types live in its folder,
// web/src/labs/<id>/; model code does not import a lab).
type QueueSnapshot = { counters: { arrived: number } };
type FlashSnapshot = { counters: { host_writes: number }; blocks: unknown[] };
type DiskSnapshot = { time_ns: number; counters: { completed: number } };
type FawndsSnapshot = { time_ns: number; stores: Array<{ records: number }>; counters: { ops_completed: number } };
type FawnkvSnapshot = { now_ns: number; nodes: unknown[]; puts: number; gets: number };
type VectorNetSnapshot = { t_ns: number; totals: { completed_keys: number } };
type VectorBlockSnapshot = { t_ns: number; totals: { completed: number } };
type ConaSnapshot = { t_ns: number; entries: number };
type StoresSnapshot = { t_ns: number; ops_offered: number; stores: Array<{ kind: string; ops: number }> };
type SrcmapSnapshot = { t_ns: number; totals: { requests: number } };

/**
 * What a live scenario must show after its script and a virtual second (a minute for a disk
 * that is mostly idle), per session: the host at work, the cluster up, the node serving.
 */
const LIVE_CHECKS: Record<string, { seconds?: (c: Record<string, unknown>) => number; check: (snap: never, c: Record<string, unknown>, ops: number) => void }> = {
  queues: { check: (sn: QueueSnapshot) => expect(sn.counters.arrived).toBeGreaterThan(0) },
  'devices.flash': { check: (sn: FlashSnapshot, c) => {
    expect(sn.counters.host_writes).toBeGreaterThan(0);
    expect(sn.blocks.length).toBe((c.blocks as number | undefined) ?? 32);
  } },
  'devices.disk': {
    seconds: (c) => (((c.rate_per_s as number | undefined) ?? 60) >= 1 ? 1 : 60),
    check: (sn: DiskSnapshot, c) => {
      expect(sn.time_ns).toBeGreaterThan(0);
      if (((c.rate_per_s as number | undefined) ?? 60) >= 10) expect(sn.counters.completed).toBeGreaterThan(0);
    },
  },
  fawnds: { check: (sn: FawndsSnapshot, c, ops) => {
    expect(sn.time_ns).toBeGreaterThanOrEqual(1e9);
    expect(sn.stores.reduce((n, st) => n + st.records, 0)).toBeGreaterThan(0);
    if (((c.load_rate_per_s as number | undefined) ?? 0) > 0) expect(sn.counters.ops_completed).toBeGreaterThan(ops);
  } },
  fawnkv: { check: (sn: FawnkvSnapshot, c) => {
    expect(sn.now_ns).toBeGreaterThanOrEqual(1e9);
    expect(sn.nodes.length).toBeGreaterThan(0);
    if (((c.load_rate_per_s as number | undefined) ?? 0) > 0) expect(sn.puts + sn.gets).toBeGreaterThan(0);
  } },
  'vector.net': { check: (sn: VectorNetSnapshot) => {
    expect(sn.t_ns).toBeGreaterThan(0);
    expect(sn.totals.completed_keys).toBeGreaterThan(0);
  } },
  'vector.block': { check: (sn: VectorBlockSnapshot) => {
    expect(sn.t_ns).toBeGreaterThan(0);
    expect(sn.totals.completed).toBeGreaterThan(0);
  } },
  cona: { check: (sn: ConaSnapshot) => {
    expect(sn.t_ns).toBeGreaterThan(0);
    expect(sn.entries).toBeGreaterThan(0);
  } },
  // Every store the scenario picked runs, and each has served operations of the one stream.
  stores: { check: (sn: StoresSnapshot) => {
    expect(sn.t_ns).toBeGreaterThan(0);
    expect(sn.ops_offered).toBeGreaterThan(0);
    expect(sn.stores.length).toBeGreaterThan(0);
    for (const st of sn.stores) expect(st.ops, `${st.kind} served nothing`).toBeGreaterThan(0);
  } },
  // The day has begun and the volumes' requests are being served.
  srcmap: { check: (sn: SrcmapSnapshot) => {
    expect(sn.t_ns).toBeGreaterThan(0);
    expect(sn.totals.requests).toBeGreaterThan(0);
  } },
};

/** Registers lesson `lab`'s checks (web/src/model/lessonRuns/<lab>.test.ts, one file per lab so vitest runs labs side by side). */
export function describeLesson(lab: string): void {
describe(`lesson ${lab}`, () => {
  const { lesson, errors } = load(lab);

  it('has valid scenarios', () => {
    expect(errors.filter((e) => e.startsWith('scenario'))).toEqual([]);
    expect(lesson.scenarios.length).toBeGreaterThan(0);
  });

  it.skipIf(!has(lab, 'lesson.md'))('parses with every reference resolved', () => {
    expect(errors).toEqual([]);
    expect(lesson.title).not.toBe('');
    expect(lesson.scenarios.length).toBeGreaterThan(0);
    expect(lesson.exercises.length).toBeGreaterThan(0);
    const placed = lesson.blocks.flatMap((b) => (b.kind === 'scenario' ? [b.scenario.id] : b.kind === 'exercise' ? [b.exercise.id] : []));
    for (const s of lesson.scenarios) expect(placed, `scenario ${s.id} is not placed in lesson.md`).toContain(s.id);
    for (const e of lesson.exercises) expect(placed, `exercise ${e.id} is not placed in lesson.md`).toContain(e.id);
  });

  it.for(lesson.scenarios.map((s) => [s.id, s] as const))('scenario %s runs with its seed', async ([, s]) => {
    const core = await testCore();
    if (s.experiment) {
      const r = core.run(s.experiment, s.params ?? {}, String(s.seed));
      expect(isCoreError(r) ? r.message : 'ok').toBe('ok');
    } else if (s.live) {
      // A live scenario: its session (by the lab and the config's view) opens, its script
      // runs (each operation must succeed), then virtual time passes with it at work.
      const info = sessionForConfig(lab, s.live);
      expect(info, `no session of lab ${lab} for view ${String(s.live.view)}`).toBeDefined();
      const { script, ...config } = s.live;
      const session = await testSession(info!.id, config, String(s.seed));
      const ops = Array.isArray(script) ? script : [];
      for (const op of ops) {
        const r = await session.apply(op);
        expect(isCoreError(r) ? `${(op as { op: string }).op}: ${r.message}` : 'ok').toBe('ok');
      }
      const checks = LIVE_CHECKS[info!.id];
      expect(checks, `no check for session ${info!.id}`).toBeDefined();
      const t = await session.tick({ dtNs: (checks!.seconds?.(config) ?? 1) * 1e9, maxEvents: 5e6 });
      if (!t.ok) throw new Error(t.message);
      checks!.check(t.snapshot as never, config, ops.length);
      session.dispose();
    }
  });

  it.each(lesson.exercises.map((e) => [e.id, e] as const))('exercise %s: every variant\'s worked solution passes the model check', async (_id, base) => {
    const core = await testCore();
    for (const vars of allVariants(base)) {
      const ex = instantiateWith(base, vars);
      const run = exerciseRun(ex, lesson);
      const r = core.run(run.experiment, run.params, String(run.seed));
      if (isCoreError(r)) throw new Error(`exercise ${ex.id} ${JSON.stringify(vars)}: ${r.message}`);
      const metric = r.result.metrics[ex.check.metric];
      expect(metric, `the run has no metric ${ex.check.metric}`).toBeTypeOf('number');
      if (ex.kind === 'choice') expect(correctOption(ex, metric!), `no option equals the model's ${metric}`).toBeDefined();
      expect(judge(ex, ex.solution, metric!), `${JSON.stringify(vars)}: solution ${ex.solution} vs model ${metric}`).toBe(true);
    }
  });

  it.each(lesson.exercises.map((e) => [e.id, e] as const))('exercise %s: no text shown with the question gives its answer away', (_id, base) => {
    const around = textAround(lab, base.id);
    for (const vars of allVariants(base)) {
      const ex = instantiateWith(base, vars);
      for (const [where, text] of [['title', ex.title], ['prompt', ex.prompt], ['hint', ex.hint], ['lesson text beside it', around]] as const) {
        for (const form of answerForms(ex.solution)) {
          expect(containsNumber(text, form), `${where} of ${ex.id} ${JSON.stringify(vars)} shows the answer ${form}`).toBe(false);
        }
      }
    }
  });
});
}

/** The lesson paragraphs just before and just after an exercise's directive. */
function textAround(lab: string, id: string): string {
  if (!has(lab, 'lesson.md')) return '';
  const lines = readFileSync(`${dir}/${lab}/lesson.md`, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.trim() === `{{exercise ${id}}}`);
  if (at < 0) return '';
  const para = (from: number, step: number): string[] => {
    const out: string[] = [];
    let i = from;
    while (i >= 0 && i < lines.length && lines[i]!.trim() === '') i += step;
    while (i >= 0 && i < lines.length && lines[i]!.trim() !== '' && !lines[i]!.startsWith('{{') && !lines[i]!.startsWith('#')) {
      out.push(lines[i]!);
      i += step;
    }
    return out;
  };
  return [...para(at - 1, -1), ...para(at + 1, 1)].join('\n');
}

/** How an answer could be printed, for answers of two or more significant digits. */
function answerForms(x: number): string[] {
  const digits = String(Math.abs(x)).replace(/[^0-9]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  if (digits.length < 2 && Math.abs(x) < 10) return [];
  return [...new Set([String(x), formatValue(x), x.toLocaleString('en-US')])];
}

function containsNumber(text: string, form: string): boolean {
  const esc = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\d.,])${esc}(?![\\d]|[.,]\\d)`).test(text);
}


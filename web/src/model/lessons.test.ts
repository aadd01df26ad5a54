// Every lesson: its references resolve, every scenario runs with its stated seed, and every
// exercise's worked solution is judged correct against the model's own number.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCoreError } from './core';
import { correctOption, exerciseRun, judge, judgeNumeric, parseAnswer, parseLesson, type Lesson } from './lessons';
import { REPO, testCore } from './testCore';

const dir = `${REPO}lessons`;
const labs = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

function load(lab: string): { lesson: Lesson; errors: string[] } {
  const read = (f: string) => readFileSync(`${dir}/${lab}/${f}`, 'utf8');
  return parseLesson(lab, read('lesson.md'), JSON.parse(read('scenarios.json')), JSON.parse(read('exercises.json')));
}

describe.each(labs)('lesson %s', (lab) => {
  const { lesson, errors } = load(lab);

  it('parses with every reference resolved', () => {
    expect(errors).toEqual([]);
    expect(lesson.title).not.toBe('');
    expect(lesson.scenarios.length).toBeGreaterThan(0);
    expect(lesson.exercises.length).toBeGreaterThan(0);
    const placed = lesson.blocks.flatMap((b) => (b.kind === 'scenario' ? [b.scenario.id] : b.kind === 'exercise' ? [b.exercise.id] : []));
    for (const s of lesson.scenarios) expect(placed, `scenario ${s.id} is not placed in lesson.md`).toContain(s.id);
    for (const e of lesson.exercises) expect(placed, `exercise ${e.id} is not placed in lesson.md`).toContain(e.id);
  });

  it.each(lesson.scenarios.map((s) => [s.id, s] as const))('scenario %s runs with its seed', async (_id, s) => {
    const core = await testCore();
    if (s.experiment) {
      const r = core.run(s.experiment, s.params ?? {}, String(s.seed));
      expect(isCoreError(r) ? r.message : 'ok').toBe('ok');
    } else {
      const session = core.createQueueSession(s.live ?? {}, String(s.seed));
      expect(isCoreError(session) ? session.message : 'ok').toBe('ok');
      if (isCoreError(session)) return;
      session.advance(1e6, 1e6);
      expect(session.snapshot().counters.arrived).toBeGreaterThan(0);
      session.dispose();
    }
  });

  it.each(lesson.exercises.map((e) => [e.id, e] as const))('exercise %s: the worked solution passes the model check', async (_id, ex) => {
    const core = await testCore();
    const run = exerciseRun(ex, lesson);
    const r = core.run(run.experiment, run.params, String(run.seed));
    if (isCoreError(r)) throw new Error(`exercise ${ex.id}: ${r.message}`);
    const metric = r.result.metrics[ex.check.metric];
    expect(metric, `the run has no metric ${ex.check.metric}`).toBeTypeOf('number');
    if (ex.kind === 'choice') expect(correctOption(ex, metric!), `no option equals the model's ${metric}`).toBeDefined();
    expect(judge(ex, ex.solution, metric!), `solution ${ex.solution} vs model ${metric}`).toBe(true);
  });
});

describe('lesson parsing', () => {
  it('finds every kind of broken reference', () => {
    const md = '# T\n\n{{scenario missing}}\n{{exercise gone}}\n{{ scenario Bad_Id }}\n';
    const { errors } = parseLesson('x', md, [{ id: 'a', title: 't', description: 'd', seed: 1 }],
      [{ id: 'e', title: 't', prompt: 'p', explanation: 'x', kind: 'numeric', solution: 1, check: { metric: 'm', scenario: 'zzz' } }]);
    expect(errors).toEqual([
      "scenario 'a': needs exactly one of \"experiment\" or \"live\"",
      "exercise 'e': a numeric exercise needs a tolerance {\"rel\": r} or {\"abs\": a}",
      "exercise 'e': check names scenario 'zzz', which is not an experiment scenario",
      "lesson.md line 3: no scenario 'missing' in scenarios.json",
      "lesson.md line 4: no exercise 'gone' in exercises.json",
      "lesson.md line 5: malformed directive '{{ scenario Bad_Id }}'",
    ]);
  });

  it('judges answers with the tolerance and reads what students type', () => {
    expect(judgeNumeric(54, 50, { rel: 0.1 })).toBe(true);
    expect(judgeNumeric(56, 50, { rel: 0.1 })).toBe(false);
    expect(judgeNumeric(0.004, 0, { abs: 0.01 })).toBe(true);
    expect(parseAnswer(' 1,000 ')).toBe(1000);
    expect(parseAnswer('4.6e2')).toBe(460);
    expect(parseAnswer('fifty')).toBeNull();
    expect(parseAnswer('')).toBeNull();
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { guideSteps, stepAt, stepOf } from './guide';
import { parseLesson } from './lessons';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const sc = (id: string) => ({ id, title: id, description: `about ${id}`, seed: 1, live: { servers: 1 } });

function lessonOf(md: string, ids: string[]) {
  const { lesson, errors } = parseLesson('queues', md, ids.map(sc), [
    { id: 'ex', title: 't', prompt: 'p', kind: 'numeric', check: { experiment: 'queues.mm1', metric: 'm' }, tolerance: { rel: 0.1 }, solution: 1, explanation: 'e', hint: 'h' },
  ]);
  expect(errors).toEqual([]);
  return lesson;
}

describe('guided tour', () => {
  const md = [
    '# Title', 'intro', '## First', 'one a', '', '{{scenario a}}', 'between', '{{scenario b}}',
    '## Second', '### Deeper', 'two', '{{exercise ex}}', 'after the exercise', '```', '# not a heading', '```', '{{scenario c}}', '{{scenario a}}',
  ].join('\n');
  const steps = guideSteps(lessonOf(md, ['a', 'b', 'c']));

  it('has one step per scenario in text order, first placement only', () => {
    expect(steps.map((s) => [s.number, s.scenario.id])).toEqual([[1, 'a'], [2, 'b'], [3, 'c']]);
  });

  it('gives each step its section: from the last heading down to the card, without exercises', () => {
    expect(steps[0]).toMatchObject({ heading: 'First', text: 'one a' });
    expect(steps[1]).toMatchObject({ heading: 'First', text: 'one a\n\nbetween' });
    expect(steps[2]!.heading).toBe('Deeper');
    expect(steps[2]!.text).toBe('two\n\nafter the exercise\n```\n# not a heading\n```');
  });

  it('clamps an out-of-range step and says so', () => {
    expect(stepAt(steps, 2)).toEqual({ step: steps[1], error: null });
    expect(stepAt(steps, 9)).toEqual({ step: steps[2], error: 'step 9 is not in this tour (it has 3 steps); showing step 3' });
    expect(stepAt([], 1)).toEqual({ step: null, error: 'this lesson has no scenarios to step through' });
    expect(stepOf(steps, 'c')).toBe(3);
    expect(stepOf(steps, 'zz')).toBeNull();
  });

  it('visits every scenario of every real lesson, each with text to read', () => {
    const dir = `${REPO}lessons`;
    for (const lab of readdirSync(dir)) {
      const read = (f: string) => readFileSync(`${dir}/${lab}/${f}`, 'utf8');
      const { lesson } = parseLesson(lab, read('lesson.md'), JSON.parse(read('scenarios.json')), JSON.parse(read('exercises.json')));
      const tour = guideSteps(lesson);
      const placed = new Set(lesson.blocks.flatMap((b) => (b.kind === 'scenario' ? [b.scenario.id] : [])));
      expect(tour.map((s) => s.scenario.id).sort(), lab).toEqual([...placed].sort());
      for (const s of tour) expect(s.heading.length > 0 && s.text.length > 0, `${lab} step ${s.number}`).toBe(true);
    }
  });
});

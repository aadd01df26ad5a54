// No lesson link is dead: every link the lesson text renders goes to a route of the app (the
// home page, a lab, the cluster page), to a lab with an experiment the core runs, or to a
// scenario or exercise of the lesson; and text that looks like a link by accident
// (`hash[0](INDEX)`) stays text.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPO, testCore } from '../model/testCore';
import { LABS } from './labs';
import { linksIn } from './Markdown';

/** Why `href` in lab `lab`'s lesson leads nowhere, or null when it resolves. */
function dead(href: string, lab: (typeof LABS)[number], experiments: Set<string>): string | null {
  if (/^https?:\/\//.test(href)) return null;
  if (href.startsWith('#')) {
    // The ids LessonView (scenario cards) and ExerciseCard (its title) give.
    const m = /^#(?:(scenario)-([a-z0-9-]+)|ex-([a-z0-9-]+)-title)$/.exec(href);
    const ids = m?.[1] === 'scenario' ? lab.lesson.scenarios.map((s) => s.id) : lab.lesson.exercises.map((e) => e.id);
    if (m && ids.includes((m[2] ?? m[3])!)) return null;
    return `${href}: no such scenario or exercise in the ${lab.id} lesson`;
  }
  const url = new URL(href, 'http://lab.invalid/');
  if (url.origin !== 'http://lab.invalid') return `${href}: not a link into the lab`;
  const path = url.pathname.replace(/\/$/, '') || '/';
  if (path === '/' || path === '/cluster') return null;
  const m = /^\/labs\/([a-z0-9-]+)$/.exec(path);
  if (!m || !LABS.some((l) => l.id === m[1])) return `${href}: no such page`;
  const exp = url.searchParams.get('exp');
  if (exp !== null && !experiments.has(exp)) return `${href}: no experiment ${exp}`;
  return null;
}

describe('lesson links', () => {
  it('the labs are the lesson folders, which the server answers 200 for (server/src/static.ts)', () => {
    const folders = readdirSync(`${REPO}lessons`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(LABS.map((l) => l.id).sort()).toEqual(folders.sort());
  });

  it('finds the links Markdown renders, and none in code or in text like hash[0](INDEX)', () => {
    expect(linksIn('see [the lab](/labs/queues) and <https://example.org>, `a[0](b)`')).toEqual(['/labs/queues', 'https://example.org']);
    expect(linksIn('buckets hash[0](INDEX), hash[1](INDEX)')).toEqual(['INDEX', 'INDEX']);
  });

  it('judges targets', async () => {
    const fawnds = LABS.find((l) => l.id === 'fawnds')!;
    const exps = new Set(['fawnds.table2']);
    expect(dead('INDEX', fawnds, exps)).toBe('INDEX: no such page');
    expect(dead('/labs/fawnds?exp=fawnds.table2', fawnds, exps)).toBeNull();
    expect(dead('/labs/fawnds?exp=fawnds.nope', fawnds, exps)).toMatch(/no experiment/);
    expect(dead(`#scenario-${fawnds.lesson.scenarios[0]!.id}`, fawnds, exps)).toBeNull();
    expect(dead('#scenario-nope', fawnds, exps)).toMatch(/no such scenario/);
    expect(dead('/cluster', fawnds, exps)).toBeNull();
  });

  it('every link in every lesson resolves', async () => {
    const core = await testCore();
    const experiments = new Set(core.experiments().map((e) => e.id));
    const problems: string[] = [];
    for (const lab of LABS) {
      const texts = [
        ...lab.lesson.blocks.flatMap((b) => (b.kind === 'markdown' ? [b.text] : [])),
        ...lab.lesson.scenarios.map((s) => s.description),
        ...lab.lesson.exercises.flatMap((e) => [e.prompt, e.explanation]),
      ];
      for (const t of texts) for (const href of linksIn(t)) {
        const why = dead(href, lab, experiments);
        if (why) problems.push(`${lab.id}: ${why}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

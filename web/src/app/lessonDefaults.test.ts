// A lesson that names a parameter's default names the schema's: the claims it checks are a
// code span `name = value` right after "default" ("the default is `region_mb = 128`") or right
// before it ("`lock_hold_us = 25000` (the default)"), for a parameter of one of the lab's
// experiments.
import { describe, expect, it } from 'vitest';
import { testCore } from '../model/testCore';
import type { ExperimentInfo } from '../model/types';
import { LABS } from './labs';

const AFTER = /defaults?(?: value)?(?: is| of| was)?\s*:?\s*`([a-z_]+)\s*=\s*([^`]+)`/gi;
const BEFORE = /`([a-z_]+)\s*=\s*([^`]+)`,?\s*\(?(?:—\s*)?(?:the|its) default\b/gi;

/** The default claims in `text` that disagree with the schema of `experiments`. */
function wrongDefaults(text: string, experiments: ExperimentInfo[]): string[] {
  const out: string[] = [];
  const flat = text.replace(/\s+/g, ' ');
  for (const re of [AFTER, BEFORE]) {
    for (const m of flat.matchAll(re)) {
      const [name, value] = [m[1]!, m[2]!.trim()];
      const specs = experiments.flatMap((e) => e.params.filter((p) => p.name === name).map((p) => ({ e: e.id, p })));
      if (specs.length === 0) {
        out.push(`\`${name} = ${value}\` is called a default, but no experiment of the lab has a parameter ${name}`);
        continue;
      }
      if (!specs.some(({ p }) => String(p.default) === value || Number(p.default) === Number(value))) {
        out.push(`\`${name} = ${value}\` is called a default; the schema's is ${specs.map(({ e, p }) => `${p.default} (${e})`).join(', ')}`);
      }
    }
  }
  return out;
}

describe('defaults named in lessons', () => {
  const info = (name: string, def: number) => ({ id: 'devices.table1', params: [{ name, default: def }] }) as unknown as ExperimentInfo;

  it('finds claims before and after the word, and judges them against the schema', () => {
    const exps = [info('region_mb', 128)];
    expect(wrongDefaults('the default is `region_mb = 128`', exps)).toEqual([]);
    expect(wrongDefaults('a `region_mb = 32` (the default) file', exps)).toHaveLength(1);
    expect(wrongDefaults("(`region_mb = 32`; the experiment's default is `region_mb = 128`)", exps)).toEqual([]);
    expect(wrongDefaults('its default `region_mb = 32`', exps)[0]).toMatch(/the schema's is 128/);
    expect(wrongDefaults('the default `nope = 1`', exps)[0]).toMatch(/no experiment of the lab has a parameter nope/);
  });

  it('every lesson names the schema defaults', async () => {
    const all = (await testCore()).experiments();
    const problems: string[] = [];
    for (const lab of LABS) {
      const exps = all.filter((e) => e.id.startsWith(`${lab.id}.`));
      const texts = [
        ...lab.lesson.blocks.flatMap((b) => (b.kind === 'markdown' ? [b.text] : [])),
        ...lab.lesson.scenarios.map((s) => s.description),
        ...lab.lesson.exercises.flatMap((e) => [e.prompt, e.explanation]),
      ];
      for (const t of texts) problems.push(...wrongDefaults(t, exps).map((p) => `${lab.id}: ${p}`));
    }
    expect(problems).toEqual([]);
  });
});

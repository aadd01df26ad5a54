// @vitest-environment jsdom
// ExperimentPanel: a Run click that comes right after the panel's first commit, before React has
// run its passive effects, still starts the run (it was dropped without a word when the runner
// was made in a mount effect; seen in CI under load). The runner is a fake: no worker in jsdom.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, expect, it, vi } from 'vitest';
import type { Core } from '../model/core';
import type { ExperimentInfo } from '../model/types';
import { ExperimentPanel } from './ExperimentPanel';

const runs = vi.hoisted(() => [] as string[]);
vi.mock('../model/runner', () => ({
  ExperimentRunner: class {
    run(id: string) {
      runs.push(id);
      return { promise: new Promise(() => {}), cancel: () => {} };
    }
    cancel() {}
    dispose() {}
  },
}));

const info: ExperimentInfo = { id: 'queues.mm1', lab: 'queues', title: 'M/M/1', summary: '', reference: '', params: [] };
const core = { resolveParamStrings: () => ({ ok: true, params: {} }) } as unknown as Core;

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  runs.length = 0;
  document.body.innerHTML = '';
});

it('starts a run clicked before the first passive effects ran', async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  const el = document.createElement('div');
  document.body.append(el);
  // The click comes in a microtask right after the commit that adds the button (a mutation
  // observer's), before the task in which React runs the passive effects: as a user's or a
  // test's click can land between a commit and the effects on a loaded machine.
  const clicked = new Promise<boolean>((resolve) => {
    const mo = new MutationObserver(() => {
      const run = [...el.querySelectorAll('button')].find((b) => b.textContent === 'Run');
      if (!run) return;
      mo.disconnect();
      run.click();
      resolve(run.disabled);
    });
    mo.observe(el, { childList: true, subtree: true });
  });
  root = createRoot(el);
  root.render(
    <ExperimentPanel core={core} experiments={[info]} scenario={{ experiment: info.id, params: {}, seed: '1' }}
      onScenario={() => {}} autoRun={false} />,
  );
  expect(await clicked).toBe(false);
  expect(runs).toEqual(['queues.mm1']);
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

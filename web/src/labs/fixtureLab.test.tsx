// @vitest-environment jsdom
// docs/adding-a-lab.md, followed for a fixture lab inside the test: a LabModule (its lesson
// files, a lazy live view and the view's name) is hosted by the generic LabPage with no change
// to any shared file. The fixture takes the Queues lab's id, so its core side (the id's
// experiments and live schema) is the real one, and brings its own web side: a lesson, its
// scenarios and a live view. The page must show the lesson, hand the view the scenario the
// link names (and a card's, when loaded), write the view's edits to the URL, and list the id's
// experiments in the panel; a lab without its lesson.md gets the interim lesson.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadCore, type Core } from '../model/core';
import { LabPage } from '../app/LabPage';
import { liveView, type LabModule, type LiveRequest } from '../app/labModule';
import { LABS, openLab } from '../app/labs';
import type { LiveConfig } from './queues/queueTypes';

const loaded = vi.hoisted(() => ({ core: null as Core | null }));
// The page's core comes from the test's (the browser page loads its own through coreContext).
vi.mock('../app/coreContext', () => ({ useCore: () => ({ core: loaded.core, error: null }) }));

/** The fixture's live view: shows the request it was handed and reports one edit. */
function FixtureView({ request, onEdit }: { request: LiveRequest<LiveConfig> | null; onEdit?: (changed: Partial<LiveConfig>) => void }) {
  return (
    <section aria-labelledby="live-heading">
      <h2 id="live-heading">Live fixture queue</h2>
      <output data-testid="fixture-request">{request ? `${JSON.stringify(request.config)} seed ${request.seed}` : 'none'}</output>
      <button type="button" onClick={() => onEdit?.({ servers: 3 })}>three servers</button>
    </section>
  );
}

const scenarios = [
  { id: 'fixture-calm', title: 'A calm fixture', description: 'One server at half load.', seed: 5,
    live: { servers: 1, arrival_rate_per_s: 50000, service_us: 10 } },
  { id: 'fixture-busy', title: 'A busy fixture', description: 'Two servers, busier.', seed: 9,
    live: { servers: 2, arrival_rate_per_s: 150000, service_us: 10 } },
];

const fixture: LabModule = {
  id: 'queues',
  title: 'Fixture lab',
  tagline: 'built by docs/adding-a-lab.md',
  blurb: 'A lab module made in a test.',
  lessonFiles: {
    markdown: '# The fixture lesson\n\nA queue, loaded from a card:\n\n{{scenario fixture-calm}}\n\n{{scenario fixture-busy}}\n',
    scenarios,
    exercises: [],
  },
  live: liveView<LiveConfig>(async () => FixtureView, 'live fixture queue'),
};

let root: Root | null = null;
let host: HTMLElement | null = null;

async function openPage(module: LabModule, search: string): Promise<void> {
  window.history.replaceState(null, '', `/labs/${module.id}${search}`);
  const el = document.createElement('div');
  document.body.append(el);
  host = el;
  root = createRoot(el);
  await act(async () => root!.render(<LabPage lab={openLab(module)} search={search} />));
}

/** Waits (a few animation frames' worth of microtasks and timers) until `find` finds something. */
async function until<T>(find: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const x = find();
    if (x) return x;
    await act(async () => new Promise((r) => setTimeout(r, 10)));
  }
  throw new Error('not found in time');
}

const page = () => host!;
const button = (text: string) => [...page().querySelectorAll('button')].find((b) => b.textContent === text);

beforeAll(async () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  // As model/testCore does (whose `new URL(…, import.meta.url)` Vite rewrites under jsdom).
  const wasm = fileURLToPath(import.meta.url).replace(/web\/src\/labs\/[^/]+$/, 'wasm-core/dist/fawnlab_web.wasm');
  loaded.core = await loadCore({ wasmBinary: readFileSync(wasm) });
  Element.prototype.scrollIntoView = () => {};
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  host?.remove();
  host = null;
});

describe('a lab added as docs/adding-a-lab.md says', () => {
  it('is not in the registry (the fixture changes no shared file)', () => {
    expect(LABS.map((l) => l.title)).not.toContain('Fixture lab');
    expect(openLab(fixture).lessonErrors).toEqual([]);
  });

  it('shows its lesson, its live view with the linked scenario, and the experiments of its id', async () => {
    await openPage(fixture, '?scenario=fixture-busy');
    expect(page().querySelector('h1')?.textContent).toBe('The fixture lesson');
    expect(page().querySelectorAll('[data-scenario]').length).toBe(2);
    expect(button('Load into the live fixture queue')).toBeDefined();
    const out = await until(() => page().querySelector('[data-testid="fixture-request"]'));
    expect(out.textContent).toBe('{"servers":2,"arrival_rate_per_s":150000,"service_us":10} seed 9');
    expect(page().querySelector('#exp-heading')?.textContent).toBe('Experiments');
    const options = [...page().querySelectorAll('.experiment select option')].map((o) => (o as HTMLOptionElement).value);
    expect(options).toContain('queues.mm1');
    expect(page().querySelector('a[href="#live-heading"]')).not.toBeNull();
    expect(page().querySelector('[role="alert"]')).toBeNull();
  });

  it('loads a card into its view and writes the view’s edits to the URL', async () => {
    await openPage(fixture, '');
    const out = await until(() => page().querySelector('[data-testid="fixture-request"]'));
    expect(out.textContent).toBe('none');
    await act(async () => button('Load into the live fixture queue')!.click());
    expect(out.textContent).toBe('{"servers":1,"arrival_rate_per_s":50000,"service_us":10} seed 5');
    expect(window.location.search).toBe('?scenario=fixture-calm');
    await act(async () => button('three servers')!.click());
    expect(new URLSearchParams(window.location.search).get('live.servers')).toBe('3');
  });

  it('without its lesson.md, offers its scenarios under an interim lesson', async () => {
    await openPage({ ...fixture, lessonFiles: { ...fixture.lessonFiles, markdown: null } }, '');
    expect(page().querySelector('h1')?.textContent).toBe('Fixture lab');
    expect(page().textContent).toContain('Load a scenario into the live view.');
    expect(page().querySelectorAll('[data-scenario]').length).toBe(2);
  });
});

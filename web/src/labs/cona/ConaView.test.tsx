// @vitest-environment jsdom
// The CONA view's controls come from the session's schema (the core's, once sessions.json has
// `cona`; the pinned one of conaFixtures.ts before), and its panels read a snapshot.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { defaultsOf, sessionById, type SessionInfo } from '../../model/session/schema';
import { helpText } from '../../app/SessionField';
import { conaSchema, conaSnapshot, emptySnapshot } from './conaFixtures';
import type { ConaConfig } from './conaTypes';
import { ConaLoadFields, ConaOps, ConaStoreSetup, namesFor } from './ConaControls';
import { CellTable, CountersTable, EventList, LookupPanel } from './ConaPanels';

const doc = (node: React.ReactElement) => new DOMParser().parseFromString(renderToStaticMarkup(node), 'text/html');
const schemas: Array<[string, SessionInfo]> = [['pinned', conaSchema()]];
const core = sessionById('cona');
if (core) schemas.push(['core', core]);

describe.each(schemas)('the controls (%s schema)', (_name, info) => {
  const config = defaultsOf(info) as unknown as Required<ConaConfig>;

  it('has a control per parameter the issue names, each with the schema\'s help and range', () => {
    const d = doc(<><ConaStoreSetup info={info} config={config} onConfig={() => {}} /><ConaLoadFields info={info} config={config} onConfig={() => {}} /></>);
    const rows: Array<[string, string]> = [['cona-buffer', 'buffer_kb'], ['cona-trie', 'trie'], ['cona-fragments', 'fragments'],
      ['cona-last-filter', 'last_filter'], ['cona-merge-thread', 'merge_thread'], ['cona-workload', 'workload'], ['cona-rate', 'rate_ops_per_s']];
    for (const [id, name] of rows) {
      const el = d.getElementById(id);
      expect(el, id).not.toBeNull();
      const spec = info.params.find((p) => p.name === name)!;
      expect(el!.getAttribute('title')).toBe(helpText(spec));
      if (el instanceof HTMLSelectElement) expect([...el.options].map((o) => o.value)).toEqual(spec.choices);
      if (el instanceof HTMLInputElement && el.type === 'number') expect([Number(el.min), Number(el.max)]).toEqual([spec.min, spec.max]);
    }
    expect((d.getElementById('cona-merge-thread') as HTMLInputElement).type).toBe('checkbox');
  });

  it('names every choice', () => {
    const trie = namesFor(info, 'trie');
    if (trie) expect(trie.mix).toBe('per-level mix (4 · 16 · 64)');
    expect(namesFor(info, 'buffer_kb')).toBeUndefined();
  });

  it('has the operations: put, get, delete a key, fill, sync, crash, recover (only after a crash)', () => {
    const d = doc(<ConaOps info={info} onOp={() => {}} busy={false} crashed={false} />);
    for (const id of ['cona-key', 'cona-value', 'cona-fill', 'cona-until']) expect(d.getElementById(id), id).not.toBeNull();
    const buttons = [...d.querySelectorAll('button')];
    expect(buttons.map((b) => b.textContent)).toEqual(['Put', 'Get', 'Delete', 'Fill', 'Skip ahead', 'Sync', 'Crash', 'Recover']);
    expect(buttons.find((b) => b.textContent === 'Recover')!.disabled).toBe(true);
    expect([...(d.getElementById('cona-until') as HTMLSelectElement).options].map((o) => o.text)).toEqual(['the next induce', 'a merge starts', 'a merge completes', 'the next flip']);
    const down = doc(<ConaOps info={info} onOp={() => {}} busy={false} crashed />);
    expect([...down.querySelectorAll('button')].filter((b) => !b.disabled).map((b) => b.textContent)).toEqual(['Recover']);
  });
});

describe('the panels', () => {
  it('the counters: one table, grouped, each value with its unit and data-counter', () => {
    const d = doc(<CountersTable snap={conaSnapshot()} />);
    expect(d.querySelector('td[data-counter="levels"]')!.textContent).toBe('4');
    expect(d.querySelector('td[data-counter="read_iops"]')!.nextElementSibling!.textContent).toBe('ops/s');
    expect([...d.querySelectorAll('tr.group th')].map((t) => t.textContent)).toEqual(['structure', 'DRAM', 'merging', 'I/O', 'operations']);
  });

  it('the cells\' memory', () => {
    const d = doc(<CellTable snap={conaSnapshot()} />);
    expect(d.querySelectorAll('tbody tr')).toHaveLength(6);
    expect(doc(<CellTable snap={emptySnapshot()} />).querySelector('table')).toBeNull();
  });

  it('the lookup, numbered as the canvas numbers it, and the events', () => {
    const d = doc(<LookupPanel snap={conaSnapshot()} />);
    const steps = [...d.querySelectorAll('ol li')];
    expect(steps).toHaveLength(6);
    expect(steps[5]!.textContent).toMatch(/^6L3 slot 0: trie rank 395/);
    expect(d.body.textContent).toContain('get “alice”: found');
    expect(doc(<EventList snap={conaSnapshot()} />).querySelectorAll('li')).toHaveLength(5);
  });
});

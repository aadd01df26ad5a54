// @vitest-environment jsdom
// The Stores view's controls come from the session's schema (the core's, once sessions.json has
// `stores`; the pinned one of storesFixtures.ts before), and its panels read a snapshot.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../app/SessionField';
import { defaultsOf, sessionById, type SessionInfo } from '../../model/session/schema';
import { StoreCards, type StoreCanvasHandle } from './StoreCards';
import { StoresLoadFields, StoresOps, StoresSetup, namesFor } from './StoresControls';
import { ChartLegend, CountersTable, EventList, GetTable } from './StoresPanels';
import { COUNTERS } from './storesReadout';
import { emptyStoresSnapshot, storesSchema, storesSnapshot } from './storesFixtures';
import type { StoresConfig } from './storesTypes';

const doc = (node: React.ReactElement) => new DOMParser().parseFromString(renderToStaticMarkup(node), 'text/html');
const schemas: Array<[string, SessionInfo]> = [['pinned', storesSchema()]];
const core = sessionById('stores');
if (core) schemas.push(['core', core]);

describe.each(schemas)('the controls (%s schema)', (_name, info) => {
  const config = defaultsOf(info) as unknown as Required<StoresConfig>;

  it('has a control per parameter the issue names, each with the schema\'s help, range and choices', () => {
    const d = doc(<><StoresSetup info={info} config={config} onConfig={() => {}} /><StoresLoadFields info={info} config={config} onConfig={() => {}} /></>);
    const rows: Array<[string, string]> = [['stores-cona', 'cona'], ['stores-cona_1t', 'cona_1t'], ['stores-silt', 'silt'], ['stores-lsm', 'lsm'],
      ['stores-fawnds', 'fawnds'], ['stores-btree', 'btree'], ['stores-workload', 'workload'], ['stores-device', 'device'], ['stores-host', 'host'],
      ['stores-records', 'records'], ['stores-bloom', 'bloom_bits'], ['stores-scale', 'scale'], ['stores-max-writes', 'max_writes'], ['stores-rate', 'rate_ops_per_s']];
    for (const [id, name] of rows) {
      const el = d.getElementById(id);
      expect(el, id).not.toBeNull();
      const spec = info.params.find((p) => p.name === name)!;
      expect(el!.getAttribute('title'), id).toBe(helpText(spec));
      if (el instanceof HTMLSelectElement) expect([...el.options].map((o) => o.value)).toEqual(spec.choices);
      if (el instanceof HTMLInputElement && el.type === 'number') expect([Number(el.min), Number(el.max)]).toEqual([spec.min, spec.max]);
    }
    // The defaults: CONA, SILT and the LSM.
    const on = ['cona', 'cona_1t', 'silt', 'lsm', 'fawnds', 'btree'].filter((p) => (d.getElementById(`stores-${p}`) as HTMLInputElement).checked);
    expect(on).toEqual(['cona', 'silt', 'lsm']);
    expect(d.querySelector('fieldset.stores-pick legend')!.textContent).toMatch(/^Stores/);
  });

  it('puts each field where a change of it acts: live ones with the rate, the others in the setup', () => {
    const setup = doc(<StoresSetup info={info} config={config} onConfig={() => {}} />);
    const load = doc(<StoresLoadFields info={info} config={config} onConfig={() => {}} />);
    for (const p of info.params) {
      const id = { workload: 'stores-workload', device: 'stores-device', host: 'stores-host', records: 'stores-records' }[p.name];
      if (!id) continue;
      expect(Boolean((p.live ? load : setup).getElementById(id)), `${p.name} (live: ${p.live})`).toBe(true);
      expect(Boolean((p.live ? setup : load).getElementById(id)), p.name).toBe(false);
    }
  });

  it('names every workload', () => {
    const w = namesFor(info, 'workload');
    if (w) expect(w.a).toBe('A: 50% reads, 50% updates');
  });

  it('has the operations: put and get a key, fill, skip ahead; none named "Run" (the experiment panel\'s)', () => {
    const d = doc(<StoresOps info={info} onOp={() => {}} busy={false} />);
    for (const id of ['stores-key', 'stores-value', 'stores-fill', 'stores-run-ops']) expect(d.getElementById(id), id).not.toBeNull();
    expect([...d.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Put', 'Get', 'Fill', 'Skip ahead']);
    expect([...doc(<StoresOps info={info} onOp={() => {}} busy />).querySelectorAll('button')].every((b) => b.disabled)).toBe(true);
  });
});

describe('the panels', () => {
  it('the counters: one table, a row per quantity, a column per store, each value with data-store and data-counter', () => {
    const d = doc(<CountersTable snap={storesSnapshot()} />);
    expect([...d.querySelectorAll('thead th')].map((t) => t.textContent)).toEqual(['quantity', 'unit', 'CONA', 'CONA 1 thread', 'SILT', 'LSM', 'FAWN\u2011DS', 'B+tree']);
    expect(d.querySelectorAll('tbody tr:not(.group)')).toHaveLength(COUNTERS.length);
    expect(d.querySelector('td[data-store="cona"][data-counter="write_iops"]')!.textContent).toBe('151k');
    expect(d.querySelector('td[data-store="btree"][data-counter="queued"]')!.textContent).toBe('1840');
    expect(d.querySelectorAll('td[data-counter="read_p99_us"]')).toHaveLength(6);
    // Every row as long as the header: aligned.
    for (const tr of d.querySelectorAll('tbody tr:not(.group)')) expect(tr.children).toHaveLength(8);
  });

  it('the last get, a row per store; before any, a hint', () => {
    const d = doc(<GetTable snap={storesSnapshot()} />);
    expect(d.querySelectorAll('tbody tr')).toHaveLength(6);
    expect(d.querySelector('tr[data-store="btree"]')!.textContent).toBe('B+tree' + 'found' + '310' + '3');
    expect(doc(<GetTable snap={emptyStoresSnapshot()} />).querySelector('table')).toBeNull();
  });

  it('the events newest first, and the legend names each line\'s style', () => {
    const d = doc(<EventList snap={storesSnapshot()} />);
    expect(d.querySelectorAll('li')).toHaveLength(5);
    expect(d.querySelector('li')!.textContent).toBe('4.45 s · CONA: flip L2');
    expect(doc(<ChartLegend snap={storesSnapshot()} />).body.textContent).toContain('SILT (dotted)');
  });

  it('a card per store with its structure in words and its canvas named', () => {
    const handles = { current: new Map<string, StoreCanvasHandle>() };
    const d = doc(<StoreCards snap={storesSnapshot()} handles={handles} />);
    expect([...d.querySelectorAll('article h3')].map((h) => h.textContent)).toEqual(['CONA', 'CONA (one thread)', 'SILT', 'LSM (LevelDB’s image)', 'FAWN-DS', 'B+tree']);
    expect(d.querySelector('[data-testid="stores-structure-lsm"]')!.getAttribute('aria-label')).toMatch(/^LSM \(LevelDB’s image\)'s structure\. Memtable/);
    expect(d.querySelector('article[data-store="btree"] .stores-queued')!.textContent).toContain('1840 ops waiting');
    expect(d.querySelector('article[data-store="silt"] .stores-work')!.textContent).toBe('converting log → hash store');
    expect(d.querySelector('.error')).toBeNull();
    const failing = storesSnapshot();
    failing.stores[2] = { ...failing.stores[2]!, errors: 3, last_error: 'silt: the log is full' };
    expect(doc(<StoreCards snap={failing} handles={handles} />).querySelector('[data-testid="stores-store-error-silt"]')!.textContent).toBe('3 failed; the last: silt: the log is full');
  });
});

// @vitest-environment jsdom
// The SRCMap view's controls come from the session's schema (the core's, once sessions.json has
// `srcmap`; the pinned one of srcmapFixtures.ts before), and its panels, map and chart read a
// snapshot and the "power" view with the test ids the e2e spec uses (COMMON18.md).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../app/SessionField';
import { defaultsOf, sessionById, type SessionInfo } from '../../model/session/schema';
import { MapView } from './MapView';
import { PowerChart } from './PowerChart';
import { LocateForm, SrcmapLevel, SrcmapSetup, TraceUpload } from './SrcmapControls';
import { ChartLegend, CountersTable, DayStrip, EventList, MapLegend } from './SrcmapPanels';
import { cachingSnapshot, emptySrcmapSnapshot, powerSeries, srcmapSchema, srcmapSnapshot } from './srcmapFixtures';
import type { SrcmapConfig } from './srcmapTypes';

const doc = (node: React.ReactElement) => new DOMParser().parseFromString(renderToStaticMarkup(node), 'text/html');
const schemas: Array<[string, SessionInfo]> = [['pinned', srcmapSchema()]];
const core = sessionById('srcmap');
if (core) schemas.push(['core', core]);

describe.each(schemas)('the controls (%s schema)', (_name, info) => {
  const config = defaultsOf(info) as unknown as Required<SrcmapConfig>;

  it('has a control per parameter, each with the schema\'s help, range and choices', () => {
    const d = doc(<><SrcmapSetup info={info} config={config} onConfig={() => {}} seed={1} onSeed={() => {}} />
      <SrcmapLevel info={info} config={config} onConfig={() => {}} onRunTo={() => {}} busy={false} /></>);
    const rows: Array<[string, string]> = [['srcmap-policy', 'policy'], ['srcmap-level', 'level'], ['srcmap-replica', 'replica_pct'], ['srcmap-interval', 'interval_h'],
      ['srcmap-rate', 'rate_scale'], ['srcmap-history', 'history_days'], ['srcmap-retrigger', 'retrigger']];
    for (const [id, name] of rows) {
      const el = d.getElementById(id);
      expect(el, id).not.toBeNull();
      const spec = info.params.find((p) => p.name === name)!;
      expect(el!.getAttribute('title'), id).toBe(helpText(spec));
      if (el instanceof HTMLSelectElement) expect([...el.options].map((o) => o.value)).toEqual(spec.choices);
      if (el instanceof HTMLInputElement && el.type === 'number') expect([Number(el.min), Number(el.max)]).toEqual([spec.min, spec.max]);
    }
    expect([...(d.getElementById('srcmap-policy') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['SRCMap', 'Baseline-On', 'Caching-1', 'Caching-2', 'Replication']);
    // The level is labelled "Level" (the e2e spec finds it by its label), the seed is there.
    expect(d.querySelector('label[for="srcmap-level"]')!.textContent).toBe('Level');
    expect((d.getElementById('srcmap-seed') as HTMLInputElement).value).toBe('1');
    expect(d.getElementById('srcmap-run-to')).not.toBeNull();
  });

  it('locate: a volume by name and an offset; the trace: a file and the history', () => {
    const l = doc(<LocateForm info={info} volumes={srcmapSnapshot().volumes.map((v) => v.name)} onLocate={() => {}} busy={false} />);
    expect([...(l.getElementById('srcmap-locate-volume') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(
      ['D0 home-1', 'D1 online', 'D2 webmail', 'D3 webresrc', 'D4 webusers', 'D5 svn-wiki', 'D6 home-2', 'D7 home-3']);
    expect(l.getElementById('srcmap-locate-offset')).not.toBeNull();
    expect([...l.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Locate']);
    const t = doc(<TraceUpload info={info} onTrace={() => {}} busy={false} />);
    expect(t.querySelector('input[type="file"]')).not.toBeNull();
    expect(t.getElementById('srcmap-trace-history')).not.toBeNull();
    expect((t.querySelector('button') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('the panels', () => {
  it('the clock and the watts with their test ids; the meter names the lines', () => {
    const d = doc(<DayStrip snap={srcmapSnapshot()} />);
    expect(d.querySelector('[data-testid="srcmap-clock"]')!.textContent).toBe('05:12');
    expect(d.querySelector('[data-testid="srcmap-watts"]')!.textContent).toBe('42.6 W');
    expect(d.querySelector('[data-testid="srcmap-meter"]')!.getAttribute('aria-label')).toMatch(/^Power meter: 42\.6 W now .* 66\.1 W with every disk on and 19\.8 W .* ideal \(Eq\. 3\.1\) at this load 29\.6 W/);
    expect(doc(<DayStrip snap={null} />).querySelector('[data-testid="srcmap-clock"]')!.textContent).toBe('00:00');
  });

  it('the counters, the events newest first, a hint before any', () => {
    const c = doc(<CountersTable snap={srcmapSnapshot()} />);
    expect(c.querySelector('td[data-counter="spin_ups"]')!.textContent).toBe('8');
    expect(c.querySelectorAll('tbody tr')).toHaveLength(10);
    const e = doc(<EventList snap={srcmapSnapshot()} />);
    expect(e.querySelector('[data-testid="srcmap-events"]')!.tagName).toBe('OL');
    expect(e.querySelector('li')!.textContent).toBe('05:11 spin-up D5: for a read miss');
    expect(doc(<EventList snap={emptySrcmapSnapshot()} />).querySelector('[data-testid="srcmap-events"]')!.tagName).toBe('P');
  });

  it('the legends name every state and line (never colour alone)', () => {
    const m = doc(<MapLegend />).body.textContent!;
    for (const w of ['spinning', 'idle', 'standby', 'spinning up', 'in the active set', 'served here now', 'a working-set replica']) expect(m).toContain(w);
    const c = doc(<ChartLegend />).body.textContent!;
    for (const w of ['watts', 'ideal, Eq. 3.1', 'all on', 'standby', 'load (right axis, IOPS)', 'planned spin-up', 'spin-up for a read miss', 'spin-up for other I/O']) {
      expect(c).toContain(w);
    }
  });
});

describe('the map and the chart', () => {
  it('a node per disk with its state as data-state and in text; a node per volume; each read out', () => {
    const d = doc(<MapView snap={srcmapSnapshot()} focused={null} onFocusNode={() => {}} located={null} />);
    const states = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => d.querySelector(`[data-testid="srcmap-disk-${i}"]`)!.getAttribute('data-state'));
    expect(states).toEqual(['standby', 'spinning', 'idle', 'spinning', 'standby', 'spinning-up', 'standby', 'standby']);
    expect(d.querySelector('[data-testid="srcmap-disk-5"]')!.textContent).toContain('spinning up');
    expect(d.querySelector('[data-testid="srcmap-disk-1"]')!.getAttribute('aria-label')).toMatch(/^D1, online's primary/);
    expect(d.querySelectorAll('[data-testid^="srcmap-volume-"]')).toHaveLength(8);
    // One tab stop: the first volume.
    expect([...d.querySelectorAll('[tabindex="0"]')].map((n) => n.getAttribute('data-testid'))).toEqual(['srcmap-volume-0']);
    expect(d.querySelectorAll('path[data-kind="served"]').length).toBeGreaterThanOrEqual(8);
  });

  it('cache disks drawn after the primaries', () => {
    const d = doc(<MapView snap={cachingSnapshot()} focused="d8" onFocusNode={() => {}} located={null} />);
    expect(d.querySelector('[data-testid="srcmap-disk-8"]')!.textContent).toContain('C0');
    expect(d.querySelector('[data-testid="srcmap-disk-9"]')!.getAttribute('data-state')).toBe('idle');
    expect(d.body.textContent).toContain('cache disks');
  });

  it('the power chart: an svg with its test id, the step line and the reference labels', () => {
    const d = doc(<PowerChart series={powerSeries(6)} refs={{ allOn: 66.1, standby: 19.8 }} nowH={6} label="power" onReadout={() => {}} />);
    const svg = d.querySelector('svg[data-testid="srcmap-power-chart"]')!;
    expect(svg.getAttribute('tabindex')).toBe('0');
    expect(svg.textContent).toContain('all on 66.1 W');
    expect(svg.textContent).toContain('standby 19.8 W');
    expect(svg.textContent).toContain('hour of the day');
    expect(svg.textContent).toContain('load (IOPS)');
    expect(svg.querySelectorAll('path').length).toBe(5);  // watts, ideal, load; two spin-up marks
    // Each spin-up mark names its cause (the fixture: D3 planned at 2.01 h, D5 a read miss at 5.19 h).
    expect([...svg.querySelectorAll('path[data-cause]')].map((p) => p.getAttribute('data-cause'))).toEqual(['planned', 'read miss']);
  });
});

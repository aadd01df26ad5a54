// @vitest-environment jsdom
// Every lab's live controls, rendered against the core's sessions.json: each control the e2e
// specs find by id is there, and its range, choices and help are the schema's (a session
// parameter's, or an operation argument's), so a change in the core reaches the controls and a
// display name that no longer matches a choice fails here.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { defaultsOf, sessionById, type SessionInfo } from '../model/session/schema';
import { helpText, type FieldSpec } from '../app/SessionField';
import type { DiskConfig, FlashConfig } from './devices/deviceTypes';
import type { FawndsConfig } from './fawnds/fawndsTypes';
import type { FawnkvConfig, FawnkvSnapshot } from './fawnkv/fawnkvTypes';
import type { LiveConfig } from './queues/queueTypes';
import { DiskFields } from './devices/DiskFields';
import { FlashFields } from './devices/FlashFields';
import { FawndsControls } from './fawnds/FawndsControls';
import { FawndsSetup } from './fawnds/FawndsSetup';
import { FawnkvControls, FawnkvSetup } from './fawnkv/FawnkvControls';
import { QueueFields } from './queues/QueueFields';

function session(id: string): SessionInfo {
  const s = sessionById(id);
  if (!s) throw new Error(`sessions.json has no '${id}': build wasm-core`);
  return s;
}

function defaults<C>(id: string): Required<C> {
  return defaultsOf(session(id)) as Required<C>;
}

function doc(node: React.ReactElement): Document {
  return new DOMParser().parseFromString(renderToStaticMarkup(node), 'text/html');
}

/** [element id, the schema entry it edits: a parameter name, or "op.arg"]. */
type Row = [string, string];

function specOf(info: SessionInfo, name: string): FieldSpec {
  const [op, arg] = name.split('.');
  const spec = arg === undefined ? info.params.find((p) => p.name === op) : info.ops.find((o) => o.name === op)?.args.find((a) => a.name === arg);
  if (!spec) throw new Error(`${info.id} has no ${name}`);
  return spec;
}

/** Checks each control against its schema entry; returns the ids of controls with a description. */
function check(d: Document, info: SessionInfo, rows: Row[], opts: { scaled?: Record<string, number>; presets?: string[] } = {}) {
  for (const [id, name] of rows) {
    const el = d.getElementById(id);
    expect(el, `#${id}`).not.toBeNull();
    const spec = specOf(info, name);
    const f = opts.scaled?.[id] ?? 1;
    if (f === 1) expect(el!.getAttribute('title'), id).toBe(helpText(spec));
    expect(el!.getAttribute('aria-describedby'), id).toBe(`${id}-help`);
    expect(d.getElementById(`${id}-help`)!.textContent).toBe(el!.getAttribute('title'));
    if (el instanceof HTMLSelectElement && spec.type === 'choice') {
      expect([...el.options].map((o) => o.value), id).toEqual(spec.choices);
      if ('labels' in spec && spec.labels) expect([...el.options].map((o) => o.text), id).toEqual(spec.labels);
    } else if (el instanceof HTMLInputElement && el.type === 'number') {
      expect([Number(el.min) * f, Number(el.max) * f], id).toEqual([spec.min, spec.max]);
    } else if (!opts.presets?.includes(id)) {
      expect(['checkbox', 'text'], id).toContain((el as HTMLInputElement).type);
    }
  }
  // No number field on the page keeps a range of its own.
  for (const input of d.querySelectorAll<HTMLInputElement>('input[type=number]')) {
    expect(rows.map(([id]) => id), `#${input.id} has a range from no schema`).toContain(input.id);
  }
}

describe('the labs\' live controls come from the schema', () => {
  it('queues', () => {
    const info = session('queues');
    const d = doc(<QueueFields config={defaults<LiveConfig>('queues')} update={() => {}} />);
    check(d, info, [['live-servers', 'servers'], ['live-arrivals', 'arrival_rate_per_s'], ['live-service-us', 'service_us'], ['live-service', 'service']],
      { scaled: { 'live-arrivals': 1000 } });
    expect(d.querySelector('.live-config input')!.id).toBe('live-servers');  // classroom.spec's first field
  });

  it('devices: flash and disk, with the profiles\' display names from the core', () => {
    const flash = session('devices.flash');
    const fd = doc(<FlashFields config={defaults<FlashConfig>('devices.flash')} update={() => {}} />);
    check(fd, flash, [['flash-profile', 'profile'], ['flash-workload', 'workload'], ['flash-streams', 'streams'], ['flash-queue-depth', 'queue_depth'],
      ['flash-overprovision', 'overprovision'], ['flash-blocks', 'blocks'], ['flash-pages', 'pages_per_block'], ['flash-prefill', 'prefill']]);
    expect([...fd.getElementById('flash-profile')!.querySelectorAll('option')].map((o) => o.textContent)).toContain('Intel X25-M (MLC SSD)');
    expect(fd.querySelector('label[for=flash-blocks]')!.textContent).toBe('erase blocks');
    const disk = session('devices.disk');
    const dd = doc(<DiskFields config={defaults<DiskConfig>('devices.disk')} update={() => {}} />);
    check(dd, disk, [['disk-profile', 'profile'], ['disk-workload', 'workload'], ['disk-rate', 'rate_per_s'], ['disk-scheduler', 'scheduler'],
      ['disk-spin-down', 'spin_down_s'], ['disk-io-kb', 'io_kb']]);
    expect(dd.querySelector('label[for=disk-rate]')!.textContent).toBe('rate (reads/s)');
    expect(dd.querySelector('label[for=disk-spin-down]')!.textContent).toBe('spin down after (s)');
  });

  it('fawnds: the setup, the load and the operations\' arguments', () => {
    const info = session('fawnds');
    const config = defaults<FawndsConfig>('fawnds');
    check(doc(<FawndsSetup config={config} onConfig={() => {}} />), info, [['fawnds-profile', 'profile'], ['fawnds-stores', 'stores'],
      ['fawnds-index-bits', 'index_bits'], ['fawnds-file-mb', 'file_mb'], ['fawnds-capacity', 'capacity_mb'], ['fawnds-lock', 'lock_hold_us'],
      ['fawnds-cache', 'page_cache_mb']], { presets: ['fawnds-lock'] });
    check(doc(<FawndsControls snap={null} store={0} onStore={() => {}} onOp={() => {}} busy={false} config={config} onConfig={() => {}} />), info,
      [['fawnds-key', 'put.key'], ['fawnds-value', 'put.value'], ['fawnds-fraction', 'split.fraction'], ['fawnds-fill', 'fill.count'],
        ['fawnds-rate', 'load_rate_per_s'], ['fawnds-put-fraction', 'load_put_fraction'], ['fawnds-load-keys', 'load_keys'], ['fawnds-value-bytes', 'value_bytes']]);
  });

  it('fawnkv: the setup, the load and the operations\' arguments', () => {
    const info = session('fawnkv');
    const config = defaults<FawnkvConfig>('fawnkv');
    check(doc(<FawnkvSetup config={config} onConfig={() => {}} />), info, [['fawnkv-nodes', 'nodes'], ['fawnkv-vids', 'vids'], ['fawnkv-r', 'replication'],
      ['fawnkv-fe', 'front_ends'], ['fawnkv-placement', 'placement']]);
    const snap = { nodes: [{ id: 0, state: 'up' }] } as unknown as FawnkvSnapshot;
    check(doc(<FawnkvControls snap={snap} busy={false} config={config} onConfig={() => {}} onOp={() => {}} />), info,
      [['fawnkv-key', 'put.key'], ['fawnkv-value', 'put.value'], ['fawnkv-fill', 'fill.count'], ['fawnkv-rate', 'load_rate_per_s'],
        ['fawnkv-put-fraction', 'load_put_fraction'], ['fawnkv-zipf', 'zipf_s'], ['fawnkv-cache', 'cache_entries']]);
  });
});

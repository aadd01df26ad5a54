import { describe, expect, it } from 'vitest';
import {
  changedFields, EMPTY_LAB_STATE, labStateFromSearch, labStateToSearch, liveFromUrl, liveTextAfterEdit, scenarioFromSearch, scenarioFromValues, scenarioToSearch,
} from './scenario';
import type { SessionParam } from './session/schema';
import { configFromText as fromText, configToText as toText } from './session/validate';
import type { ExperimentInfo } from './types';

const info: ExperimentInfo = {
  id: 'queues.mm1', lab: 'queues', title: '', summary: '', reference: '',
  params: [
    { name: 'servers', type: 'int', default: 1, min: 1, max: 64, unit: '', help: '' },
    { name: 'service_us', type: 'real', default: 10, min: 0.1, max: 1e6, unit: 'µs', help: '' },
  ],
};

describe('scenario URLs', () => {
  it('round-trips and leaves defaults out', () => {
    const s = { experiment: 'queues.mm1', params: { servers: '4', service_us: '10' }, seed: '7' };
    const q = scenarioToSearch(s, info);
    expect(q).toBe('?exp=queues.mm1&seed=7&servers=4');
    expect(scenarioFromSearch(q)).toEqual({ experiment: 'queues.mm1', params: { servers: '4' }, seed: '7' });
  });

  it('keeps bad values as typed, for the core to reject with a message', () => {
    expect(scenarioFromSearch('?exp=queues.mm1&servers=zero')!.params).toEqual({ servers: 'zero' });
    expect(scenarioToSearch({ experiment: 'queues.mm1', params: { servers: 'zero' }, seed: '1' }, info)).toContain('servers=zero');
  });

  it('has no scenario without an experiment, and a default seed', () => {
    expect(scenarioFromSearch('?servers=2')).toBeNull();
    expect(scenarioFromSearch('?exp=a')!.seed).toBe('1');
    expect(scenarioFromValues('a', { x: 2, y: 'b' }, 3)).toEqual({ experiment: 'a', params: { x: '2', y: 'b' }, seed: '3' });
  });
});

describe('lab URL state', () => {
  const p = (name: string, type: SessionParam['type'], more: Partial<SessionParam> = {}): SessionParam =>
    ({ name, type, default: 0, unit: '', help: '', live: false, ...more });
  const fields = { params: [p('nodes', 'int', { min: 1, max: 64 }), p('zipf_s', 'real', { min: 0, max: 2 }),
    p('placement', 'choice', { choices: ['hashed', 'even'] }), p('separate_queues', 'bool')] };
  const liveFromText = (text: Record<string, string>, f: typeof fields, what: string) => fromText(f, text, what);
  const liveToText = (config: Record<string, unknown>, f: typeof fields) => toText(f, config);

  it('round-trips a guided step, presentation mode, live fields and an experiment', () => {
    const state = {
      experiment: { experiment: 'queues.mm1', params: { servers: '4' }, seed: '7' },
      scenario: null, step: 3, present: true, live: { nodes: '8', placement: 'even' }, student: '42',
    };
    const q = labStateToSearch(state, info);
    expect(q).toBe('?student=42&step=3&present=1&live.nodes=8&live.placement=even&exp=queues.mm1&seed=7&servers=4');
    expect(labStateFromSearch(q)).toEqual({ ...state, errors: [] });
  });

  it('keeps the scenario id when not touring, and writes nothing for an empty state', () => {
    expect(labStateToSearch({ ...EMPTY_LAB_STATE, scenario: 'node-fails' })).toBe('?scenario=node-fails');
    expect(labStateToSearch(EMPTY_LAB_STATE)).toBe('');
    expect(labStateFromSearch('')).toEqual(EMPTY_LAB_STATE);
  });

  it('does not read its own names as experiment parameters', () => {
    const s = scenarioFromSearch('?exp=queues.mm1&step=2&scenario=a&present=1&student=7&live.nodes=3&servers=2')!;
    expect(s.params).toEqual({ servers: '2' });
  });

  it('names each bad value and keeps the rest', () => {
    const s = labStateFromSearch('?step=zero&scenario=Bad_Id&present=yes&live.nodes=4');
    expect(s.step).toBeNull();
    expect(s.scenario).toBeNull();
    expect(s.present).toBe(false);
    expect(s.live).toEqual({ nodes: '4' });
    expect(s.errors).toEqual([
      "scenario 'Bad_Id' in the link is not a scenario id (lower-case words joined by hyphens)",
      "step 'zero' in the link must be a whole number from 1",
      "present 'yes' in the link must be 1 or 0",
    ]);
    expect(labStateFromSearch('?step=0').errors).toHaveLength(1);
    const bad = labStateFromSearch('?student=abc');
    expect(bad.student).toBeNull();
    expect(bad.errors).toEqual(["student 'abc' in the link must be a whole number from 0 to 999999"]);
    expect(labStateFromSearch('?student=42').student).toBe('42');
  });

  it('types live fields against their specs and names what does not fit', () => {
    const { config, errors } = liveFromText(
      { nodes: '8', zipf_s: '1.5', placement: 'even', separate_queues: 'false', vids: '2', 'nodes2': 'x' },
      fields, 'the FAWN-KV cluster',
    );
    expect(config).toEqual({ nodes: 8, zipf_s: 1.5, placement: 'even', separate_queues: false });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBe('live.vids in the link is not a field of the FAWN-KV cluster (known: nodes, zipf_s, placement, separate_queues)');
    const bad = liveFromText({ nodes: '2.5', zipf_s: '9', placement: 'ring', separate_queues: '1' }, fields, 'x');
    expect(bad.config).toEqual({});
    expect(bad.errors).toEqual([
      'live.nodes=2.5 in the link must be an integer in [1, 64]',
      'live.zipf_s=9 in the link must be a number in [0, 2]',
      'live.placement=ring in the link must be one of hashed, even',
      'live.separate_queues=1 in the link must be true or false',
    ]);
    expect(liveFromText({ nodes: '' }, fields, 'x').errors).toHaveLength(1);
  });

  it('writes only known scalar fields, and finds what changed', () => {
    expect(liveToText({ nodes: 8, placement: 'even', separate_queues: true, script: [{ op: 'put' }], other: 1 }, fields))
      .toEqual({ nodes: '8', placement: 'even', separate_queues: 'true' });
    expect(changedFields({ a: 1, b: 'x', s: [{ op: 'put' }] }, { a: 1, b: 'y', s: [{ op: 'put' }] })).toEqual({ b: 'x' });
    // A typed round trip: text -> config -> text.
    const text = { nodes: '12', zipf_s: '0.8' };
    expect(liveToText(liveFromText(text, fields, 'x').config, fields)).toEqual(text);
  });
});

describe('live-view state in a link', () => {
  const fails = { nodes: 6, vids: 2, replication: 3, script: [{ op: 'fail-node' as const, id: 4 }] };

  it('lays the link fields over the scenario', () => {
    expect(liveFromUrl('fawnkv', fails, {})).toEqual({ config: fails, errors: [] });
    expect(liveFromUrl('fawnkv', undefined, {})).toEqual({ config: null, errors: [] });
    expect(liveFromUrl('fawnkv', fails, { nodes: '8', zipf_s: '1' })).toEqual({ config: { ...fails, nodes: 8, zipf_s: 1 }, errors: [] });
    expect(liveFromUrl('queues', undefined, { servers: '4', service: 'deterministic' })).toEqual({ config: { servers: 4, service: 'deterministic' }, errors: [] });
    const bad = liveFromUrl('fawnkv', fails, { nodes: '999' });
    expect(bad.config).toEqual(fails);
    expect(bad.errors).toEqual(['live.nodes=999 in the link must be an integer in [1, 64]']);
  });

  it('picks the Devices tab from live.view, starting afresh on another tab', () => {
    const disk = { view: 'disk' as const, rate_per_s: 50 };
    expect(liveFromUrl('devices', disk, { io_kb: '64' }).config).toEqual({ view: 'disk', rate_per_s: 50, io_kb: 64 });
    expect(liveFromUrl('devices', disk, { view: 'flash', blocks: '64' }).config).toEqual({ view: 'flash', blocks: 64 });
    expect(liveFromUrl('devices', undefined, { view: 'tape' }).errors).toEqual(['live.view=tape in the link must be flash or disk']);
    expect(liveFromUrl('devices', undefined, { io_kb: '64' }).errors[0]).toMatch(/^live\.io_kb in the link is not a field of the flash/);
  });

  it('writes an edit over the fields the link already had', () => {
    expect(liveTextAfterEdit('fawnkv', fails, { nodes: '8' }, { vids: 4 })).toEqual({ nodes: '8', vids: '4' });
    expect(liveTextAfterEdit('fawnkv', fails, { nodes: '8' }, { nodes: 6 })).toEqual({ nodes: '6' });
    expect(liveTextAfterEdit('fawnkv', fails, {}, { script: [], nodes: 7 })).toEqual({ nodes: '7' });
    expect(liveTextAfterEdit('devices', undefined, {}, { view: 'disk', io_kb: 64 })).toEqual({ view: 'disk', io_kb: '64' });
    expect(liveTextAfterEdit('devices', undefined, { view: 'disk', io_kb: '64' }, { view: 'disk', rate_per_s: 10 })).toEqual({ view: 'disk', io_kb: '64', rate_per_s: '10' });
    expect(liveTextAfterEdit('devices', undefined, { view: 'disk', io_kb: '64' }, { view: 'flash' })).toEqual({});
  });

  it('round-trips an edit through a link', () => {
    const text = liveTextAfterEdit('fawnkv', fails, {}, { nodes: 9, placement: 'even' });
    const search = labStateToSearch({ ...EMPTY_LAB_STATE, scenario: 'node-fails', live: text });
    const back = labStateFromSearch(search);
    expect(back.scenario).toBe('node-fails');
    expect(liveFromUrl('fawnkv', fails, back.live).config).toEqual({ ...fails, nodes: 9, placement: 'even' });
  });
});

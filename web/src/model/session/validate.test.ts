// Checking live configurations, patches and scripts against a session's schema, with a
// fixture schema (the lessons test checks every lesson against the core's own).
import { describe, expect, it } from 'vitest';
import { defaultsOf, runningOf, sessionForConfig, structuralOf, type SessionInfo, type SessionParam } from './schema';
import { checkConfig, checkLiveScenario, checkOp, checkPatch, configFromText, configToText } from './validate';

const p = (name: string, type: SessionParam['type'], live: boolean, more: Partial<SessionParam> = {}): SessionParam =>
  ({ name, type, default: type === 'bool' ? false : type === 'choice' ? (more.choices?.[0] ?? '') : (more.min ?? 0), unit: '', help: '', live, ...more });

const ring: SessionInfo = {
  id: 'ring', lab: 'ring', view: '', title: 'Ring', noun: 'the ring', summary: '', script: true, views: [],
  params: [p('nodes', 'int', false, { min: 1, max: 64 }), p('zipf_s', 'real', true, { min: 0, max: 2 }), p('placement', 'choice', false, { choices: ['hashed', 'even'] }), p('cache', 'bool', true)],
  ops: [
    { name: 'put', help: '', args: [{ name: 'key', type: 'string', default: '', unit: '', help: '', required: true }, { name: 'value', type: 'string', default: '', unit: '', help: '', required: false }] },
    { name: 'fail-node', help: '', args: [{ name: 'id', type: 'int', default: 0, min: 0, max: 63, unit: '', help: '', required: true }] },
    { name: 'check', help: '', args: [] },
  ],
};
const disk: SessionInfo = { id: 'dev.disk', lab: 'dev', view: 'disk', title: 'Disk', noun: 'the disk view', summary: '', script: false, ops: [], views: [],
  params: [p('io_kb', 'int', true, { min: 1, max: 1024 })] };
const flash: SessionInfo = { ...disk, id: 'dev.flash', view: 'flash', noun: 'the flash view', params: [p('blocks', 'int', false, { min: 8, max: 128 })] };
const all = [ring, disk, flash];

describe('session schema', () => {
  it('splits fields into structural (with the script) and running by their live flags', () => {
    const c = { ...defaultsOf(ring), script: [{ op: 'check' }] };
    expect(defaultsOf(ring)).toEqual({ nodes: 1, zipf_s: 0, placement: 'hashed', cache: false });
    expect(structuralOf(ring, c)).toEqual({ nodes: 1, placement: 'hashed', script: [{ op: 'check' }] });
    expect(runningOf(ring, c)).toEqual({ zipf_s: 0, cache: false });
  });

  it('picks a lab\'s session by the config\'s view', () => {
    expect(sessionForConfig('dev', { view: 'flash' }, all)?.id).toBe('dev.flash');
    expect(sessionForConfig('dev', {}, all)?.id).toBe('dev.disk');
    expect(sessionForConfig('dev', { view: 'tape' }, all)).toBeUndefined();
    expect(sessionForConfig('ring', { view: 'x' }, all)?.id).toBe('ring');
  });
});

describe('live config checks', () => {
  it('names the field and its range', () => {
    expect(checkConfig(ring, { nodes: 8, zipf_s: 1.5, placement: 'even', cache: true })).toEqual([]);
    expect(checkConfig(ring, { nodes: 65, zipf_s: 'x', placement: 'random', cache: 1, stores: 2 })).toEqual([
      'nodes must be an integer in [1, 64]',
      'zipf_s must be a number in [0, 2]',
      'placement must be one of hashed, even',
      'cache must be true or false',
      "unknown field 'stores' for the ring (known: nodes, zipf_s, placement, cache)",
    ]);
    expect(checkConfig(ring, { nodes: 2.5 })).toEqual(['nodes must be an integer in [1, 64]']);
  });

  it('checks a script\'s operations and their arguments', () => {
    expect(checkConfig(ring, { script: [{ op: 'put', key: 'x', value: 'y' }, { op: 'fail-node', id: 2 }, { op: 'check' }] })).toEqual([]);
    expect(checkConfig(ring, { script: [{ op: 'fail-node' }, { op: 'put', key: '' }, { op: 'crash' }, { op: 'fail-node', id: 64 }, { op: 'check', id: 1 }] })).toEqual([
      'script operation 0 (fail-node) needs "id": an integer in [0, 63]',
      'script operation 1 (put) needs "key": a non-empty string',
      'script operation 2 needs "op": one of put, fail-node, check',
      'script operation 3 (fail-node) needs "id": an integer in [0, 63]',
      "script operation 4 (check) has an unknown argument 'id' (known: none)",
    ]);
    expect(checkConfig(ring, { script: 'fill' })).toEqual(['script must be an array of operations']);
    expect(checkConfig(disk, { script: [] })).toEqual(["unknown field 'script' for the disk view (known: io_kb)"]);
    expect(checkOp(ring, { op: 'put', key: 'k' })).toEqual([]);
  });

  it('lets only live fields change a running session', () => {
    expect(checkPatch(ring, { zipf_s: 1 })).toEqual([]);
    expect(checkPatch(ring, { nodes: 3, zipf_s: 3 })).toEqual(['nodes cannot change while the ring runs (it needs a new session)', 'zipf_s must be a number in [0, 2]']);
  });

  it('checks a lesson scenario against its lab\'s sessions', () => {
    expect(checkLiveScenario('dev', { view: 'flash', blocks: 64 }, 'here', all)).toEqual([]);
    expect(checkLiveScenario('dev', { blocks: 64 }, 'here', all)).toEqual(['here: a dev live scenario needs "view": "disk" or "flash"']);
    expect(checkLiveScenario('dev', { view: 'flash', blocks: 200 }, 'here', all)).toEqual(['here: blocks must be an integer in [8, 128]']);
    expect(checkLiveScenario('ring', { view: 'disk' }, 'here', all)).toEqual(['here: "view" is a field of the dev lab\'s live scenarios']);
    expect(checkLiveScenario('nolab', {}, 'here', all)).toEqual(['here: the nolab lab has no live view']);
  });

  it('types link text by the schema and writes it back', () => {
    const { config, errors } = configFromText(ring, { nodes: '8', zipf_s: '1.5', placement: 'even', cache: 'false', vids: '2' }, 'the ring');
    expect(config).toEqual({ nodes: 8, zipf_s: 1.5, placement: 'even', cache: false });
    expect(errors).toEqual(['live.vids in the link is not a field of the ring (known: nodes, zipf_s, placement, cache)']);
    expect(configFromText(ring, { nodes: '2.5', zipf_s: '9', placement: 'ring', cache: '1', }, 'x').errors).toEqual([
      'live.nodes=2.5 in the link must be an integer in [1, 64]',
      'live.zipf_s=9 in the link must be a number in [0, 2]',
      'live.placement=ring in the link must be one of hashed, even',
      'live.cache=1 in the link must be true or false',
    ]);
    expect(configToText(ring, { nodes: 8, cache: true, script: [], other: 1 })).toEqual({ nodes: '8', cache: 'true' });
  });
});

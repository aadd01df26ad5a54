import { describe, expect, it } from 'vitest';
import { scenarioFromSearch, scenarioFromValues, scenarioToSearch } from './scenario';
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

import { describe, expect, it } from 'vitest';
import { expandScript, FILL_CHUNK } from './conaSession';

describe('expandScript', () => {
  it('cuts a big fill into chunks of at most FILL_CHUNK, keeping the total and the other operations in order', () => {
    const ops = expandScript([{ op: 'put', key: 'a', value: 'b' }, { op: 'fill', count: 2 * FILL_CHUNK + 7 }, { op: 'get', key: 'a' }]);
    expect(ops.map((o) => o.op)).toEqual(['put', 'fill', 'fill', 'fill', 'get']);
    const fills = ops.filter((o) => o.op === 'fill').map((o) => (o.op === 'fill' ? o.count : 0));
    expect(fills).toEqual([FILL_CHUNK, FILL_CHUNK, 7]);
    expect(expandScript([{ op: 'fill', count: 10 }])).toEqual([{ op: 'fill', count: 10 }]);
  });
});

import { describe, expect, it } from 'vitest';
import { expandScript, FILL_CHUNK } from './storesSession';

describe('expandScript', () => {
  it('cuts a big fill into chunks of at most FILL_CHUNK, keeping the total and the other operations in order', () => {
    const ops = expandScript([{ op: 'put', key: 'a', value: 'b' }, { op: 'fill', count: 2 * FILL_CHUNK + 7 }, { op: 'get', key: 'a' }]);
    expect(ops.map((o) => o.op)).toEqual(['put', 'fill', 'fill', 'fill', 'get']);
    expect(ops.flatMap((o) => (o.op === 'fill' ? [o.count] : []))).toEqual([FILL_CHUNK, FILL_CHUNK, 7]);
  });
});

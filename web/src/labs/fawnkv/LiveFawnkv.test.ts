// The FAWN-KV page's pure parts: result lines (the script queue: app/scriptQueue.test.ts).
import { describe, expect, it } from 'vitest';
import { describeKvResult } from './LiveFawnkv';

describe('result lines', () => {
  it('name the chain, where the answer came from and the latency', () => {
    expect(describeKvResult({ op: 'put', key: 'a', value: 'b' }, { op: 'put', latency_ns: 1_500_000, chain: ['3/1', '5/0', '1/1'] }))
      .toBe('put “a” → chain 3/1 → 5/0 → 1/1 (head first): acknowledged by the tail in 1.5 ms');
    expect(describeKvResult({ op: 'get', key: 'a' }, { op: 'get', latency_ns: 800_000, found: true, value: 'b', chain: ['3/1', '5/0', '1/1'] }))
      .toBe('get “a” → “b” from the tail 1/1 of chain 3/1 → 5/0 → 1/1 in 800 µs');
    expect(describeKvResult({ op: 'get', key: 'a' }, { op: 'get', latency_ns: 20_000, found: true, value: 'b', cache_hit: true }))
      .toBe('get “a” → “b” from the front-end\'s cache in 20 µs');
    expect(describeKvResult({ op: 'check' }, { op: 'check', check: { keys: 3, operations: 10, violations: 2, details: [] } }))
      .toBe('checker: 2 violations in 10 operations');
    expect(describeKvResult({ op: 'fill', count: 100, from: 5 }, { op: 'fill' })).toBe('put keys k5 … k104');
  });
});

// The script queue both scripted labs share: one operation at a time, progress, the first
// refusal drops the rest, and a reload forgets an answer still on its way.
import { describe, expect, it } from 'vitest';
import { chunkFills, ScriptQueue, type ScriptStep } from './scriptQueue';

type Op = { op: string };
const answer = (o: Op) => Promise.resolve(o.op === 'bad' ? { ok: false as const, code: 'x', message: 'no' } : { ok: true });

describe('ScriptQueue', () => {
  it('sends one operation at a time, reports progress, and stops at the first refusal', async () => {
    const q = new ScriptQueue<Op>();
    const applied: string[] = [];
    const steps: ScriptStep[] = [];
    const apply = (o: Op) => (applied.push(o.op), answer(o));
    q.load([{ op: 'a' }, { op: 'b' }, { op: 'bad' }, { op: 'c' }]);
    expect(q.pump(apply, (s) => steps.push(s))).toBe(true);
    expect(q.pump(apply, (s) => steps.push(s))).toBe(true);  // still in flight: nothing sent
    expect(applied).toEqual(['a']);
    for (let i = 0; i < 4; i++) {
      await Promise.resolve();
      q.pump(apply, (s) => steps.push(s));
    }
    await Promise.resolve();
    expect(steps).toEqual([
      { error: null, status: 'Setting up the scenario: step 1 of 4…' },
      { error: null, status: 'Setting up the scenario: step 2 of 4…' },
      { error: "The scenario's operation 3 (bad) failed: no", status: '' },
    ]);
    expect(q.busy).toBe(false);
    expect(q.pump(apply, (s) => steps.push(s))).toBe(false);
    expect(applied).toEqual(['a', 'b', 'bad']);
  });

  it('ignores the answer to an operation of a script since replaced', async () => {
    const q = new ScriptQueue<Op>();
    const steps: ScriptStep[] = [];
    q.load([{ op: 'a' }, { op: 'b' }]);
    q.pump(answer, (s) => steps.push(s));
    q.load([{ op: 'c' }]);
    await Promise.resolve();
    expect(steps).toEqual([]);
    expect(q.busy).toBe(true);
  });
});

describe('chunkFills', () => {
  it('cuts each fill above the chunk into fills of at most the chunk, in order, keeping the total', () => {
    type O = { op: 'put'; key: string } | { op: 'fill'; count: number };
    const ops: O[] = [{ op: 'fill', count: 25 }, { op: 'put', key: 'a' }, { op: 'fill', count: 10 }, { op: 'fill', count: 3 }];
    expect(chunkFills(ops, 10)).toEqual([
      { op: 'fill', count: 10 },
      { op: 'fill', count: 10 },
      { op: 'fill', count: 5 },
      { op: 'put', key: 'a' },
      { op: 'fill', count: 10 },
      { op: 'fill', count: 3 },
    ]);
    expect(chunkFills([], 10)).toEqual([]);
  });

  it('leaves an operation named fill without a count alone', () => {
    expect(chunkFills([{ op: 'fill' }], 1)).toEqual([{ op: 'fill' }]);
  });
});

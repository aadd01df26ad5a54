import { describe, expect, it } from 'vitest';
import { sceneTexts } from '../../../viz/canvasScene';
import { costScene, stack } from './costScene';
import { COST_KINDS } from './netPalette';
import { netSnapshot } from './netFixtures';

describe('costScene', () => {
  it('stacks the kinds in order, leaving out the zeros', () => {
    expect(stack(['a', 'b', 'c'], [1, 0, 2])).toEqual([{ kind: 'a', value: 1, start: 0 }, { kind: 'c', value: 2, start: 1 }]);
  });

  it('titles both bars with their totals and names every kind in the legend', () => {
    const sn = netSnapshot();
    const t = sceneTexts(costScene(sn, 600));
    expect(t).toContain('Cores busy by cost kind: 1.72 of 8 cores');
    expect(t).toContain('Core-µs per lookup by kind: 4.31 in all');
    expect(t).toContain("Each core's busy share (busiest 74%)");
    for (const k of sn.cost.kinds) expect(t).toContain(COST_KINDS[k].label);
  });

  it('draws a segment per non-zero kind in each bar, in the kind colours', () => {
    const sc = costScene(netSnapshot(), 600);
    const segs = sc.items.filter((it) => it.t === 'rect' && it.tag === 'rpc');
    expect(segs).toHaveLength(3);  // a legend swatch and one segment in each bar
    for (const s of segs) expect(s.t === 'rect' && s.fill).toBe(COST_KINDS.rpc.colour);
    expect(sc.items.filter((it) => it.t === 'rect' && it.tag === 'queue' && it.h > 11)).toHaveLength(0);
  });

  it('has nine distinct colours', () => {
    expect(new Set(Object.values(COST_KINDS).map((k) => k.colour)).size).toBe(9);
  });
});

// The Cluster page's time charts: titled axes with units, a line per back-end in its ring
// colour and named, latency p50/p99 with gaps, the 60 s window, and round latency axes.
import { describe, expect, it } from 'vitest';
import type { HistorySample } from '../model/clusterView';
import { sceneTexts, type Scene, type SceneItem } from './canvasScene';
import { latencyScene, niceCeil, P50_COLOUR, P99_COLOUR, throughputScene, WINDOW_S } from './clusterCharts';
import { nodeColour } from './ringPalette';

const sample = (t: number, perNode: Array<[number, number]>, p50: number | null = 0.4, p99: number | null = 1.7): HistorySample =>
  ({ t, perNode: new Map(perNode), opsPerS: 100, errorsPerS: 0, p50, p99 });
const of = <T extends SceneItem['t']>(s: Scene, t: T) => s.items.filter((i): i is Extract<SceneItem, { t: T }> => i.t === t);

describe('throughputScene', () => {
  it('draws one named line per back-end on a labelled axis', () => {
    const samples = Array.from({ length: 20 }, (_, i) => sample(i * 0.5, [[0, 100 + i], [1, 50], [2, i < 10 ? 30 : 0]]));
    const s = throughputScene(samples, [0, 1, 2], 700);
    const texts = sceneTexts(s);
    expect(texts).toEqual(expect.arrayContaining(['requests served per second, by back-end (requests/s)', 'wall-clock time (s since the page connected)', 'node 0', 'node 1', 'node 2', '0', '100', '200']));
    const paths = of(s, 'path');
    expect(paths.map((p) => p.stroke)).toEqual([nodeColour(0), nodeColour(1), nodeColour(2)]);
    expect(paths[0]!.points).toHaveLength(20);
    // 119 requests/s at the last sample: 119/200 of the plot's height above the axis.
    const bottom = 26 + 150;
    expect((bottom - paths[0]!.points[19]![1]) / 150).toBeCloseTo(119 / 200, 9);
  });

  it('breaks a node\'s line where it was missing and keeps the last minute', () => {
    const samples = [sample(0, [[0, 10]]), sample(1, [[0, 10]]), sample(2, []), sample(3, [[0, 10]]), sample(4, [[0, 10]])];
    expect(of(throughputScene(samples, [0], 600), 'path')).toHaveLength(2);
    const long = Array.from({ length: 200 }, (_, i) => sample(i, [[0, 5]]));
    expect(of(throughputScene(long, [0], 600), 'path')[0]!.points).toHaveLength(WINDOW_S + 1);
    expect(sceneTexts(throughputScene([], [], 600))).toContain('Waiting for the first status…');
  });
});

describe('latencyScene', () => {
  it('draws p50 solid and p99 dashed in ms, with gaps where nothing finished', () => {
    const samples = [sample(0, [], 0.4, 1.7), sample(0.5, [], 0.5, 1.9), sample(1, [], null, null), sample(1.5, [], 0.6, 3.1), sample(2, [], 0.4, 2.2)];
    const s = latencyScene(samples, 700);
    expect(sceneTexts(s)).toEqual(expect.arrayContaining(['client latency at the front-end (ms):', 'p50 (median)', 'p99', '0', '2.5', '5']));
    const paths = of(s, 'path');
    expect(paths.map((p) => [p.stroke, p.dash ?? null, p.points.length])).toEqual([
      [P50_COLOUR, null, 2], [P50_COLOUR, null, 2], [P99_COLOUR, [5, 3], 2], [P99_COLOUR, [5, 3], 2]]);
    expect(sceneTexts(latencyScene([sample(0, [], null, null)], 600))).toContain('No requests finished yet: start the load generator below.');
  });

  it('rounds the axis up to 1, 2 or 5 × 10^n', () => {
    expect([0, 0.07, 0.13, 0.3, 0.9, 1.7, 4.2, 7, 12, 340].map(niceCeil)).toEqual([0.1, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 500]);
  });
});

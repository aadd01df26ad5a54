import { describe, expect, it } from 'vitest';
import type { ExperimentResult } from '../model/types';
import { categoriesOf, chartsFromResult, isClosed, quantityOf } from './chartSpec';

function result(series: ExperimentResult['series']): ExperimentResult {
  return { id: 'x', title: 'x', params: {}, seed: 1, scale: { factor: 1, note: '' }, metrics: {}, anchors: {}, tolerances: {}, anchor_notes: {}, series, notes: [] };
}

describe('categoriesOf', () => {
  it('reads the categories an x label numbers from 0, in parentheses or after a colon', () => {
    expect(categoriesOf('system (0 device alone, 1 FAWN-KV G=R=1, 2 vector FAWN-KV)'))
      .toEqual({ name: 'system', categories: ['device alone', 'FAWN-KV G=R=1', 'vector FAWN-KV'] });
    expect(categoriesOf('run: 0 Atom stock, 1 Atom tuned, 2 Xeon stock'))
      .toEqual({ name: 'run', categories: ['Atom stock', 'Atom tuned', 'Xeon stock'] });
  });
  it('leaves ordinary labels alone', () => {
    expect(categoriesOf('response time (µs)')).toBeNull();
    expect(categoriesOf('system (0 a, 2 b)')).toBeNull();  // a gap
    expect(categoriesOf('time (0 is the start)')).toBeNull();
    expect(categoriesOf('width (0 only)')).toBeNull();
  });
  it('makes a chart categorical only when every x is one of its categories', () => {
    const [c] = chartsFromResult(result([
      { name: 'a', kind: 'measured', x_label: 'run: 0 stock, 1 tuned', y_label: 'µs', points: [[0, 40], [1, 32]] },
    ]));
    expect(c!.categories).toEqual(['stock', 'tuned']);
    expect(c!.xLabel).toBe('run');
    expect(c!.title).toBe('µs by run');
    const [d] = chartsFromResult(result([
      { name: 'a', kind: 'measured', x_label: 'run: 0 stock, 1 tuned', y_label: 'µs', points: [[0.5, 40]] },
    ]));
    expect(d!.categories).toBeUndefined();
  });
});

describe('chartsFromResult', () => {
  it('groups series by their axes, in order, and pairs measured with theory by colour', () => {
    const charts = chartsFromResult(result([
      { name: 'mean response (simulated)', kind: 'measured', x_label: 'ρ', y_label: 'response (µs)', points: [[0.1, 11], [0.9, 100]] },
      { name: 'mean response (theory)', kind: 'theory', x_label: 'ρ', y_label: 'response (µs)', points: [[0.1, 11.1], [0.9, 100]] },
      { name: 'p99 response (simulated)', kind: 'measured', x_label: 'ρ', y_label: 'response (µs)', points: [[0.1, 40], [0.9, 460]] },
      { name: 'CDF (simulated)', kind: 'measured', x_label: 'response (µs)', y_label: 'fraction', points: [[1, 0.1], [2, 1]] },
      { name: 'empty', kind: 'measured', x_label: 'a', y_label: 'b', points: [] },
    ]));
    expect(charts.map((c) => c.title)).toEqual(['response against ρ', 'fraction against response']);
    const [a] = charts;
    expect(a!.series.map((s) => s.colour)).toEqual([0, 0, 1]);
  });

  it('uses a log x axis for doubling sweeps and a log y axis for wide ranges', () => {
    const [c] = chartsFromResult(result([
      { name: 'latency', kind: 'measured', x_label: 'w', y_label: 'µs', points: [[1, 2], [2, 40], [4, 90], [8, 200], [16, 420], [32, 850]] },
    ]));
    expect(c!.xLog).toBe(true);
    expect(c!.yLog).toBe(true);
    const [d] = chartsFromResult(result([
      { name: 'x', kind: 'measured', x_label: 'N', y_label: 'kreq/s', points: [[1, 9], [2, 18], [3, 27], [4, 35]] },
    ]));
    expect(d!.xLog).toBe(false);
    expect(d!.yLog).toBe(false);
    // A cliff like FAWN Table 2's (85K down to 1.2K QPS) reads on a log y axis.
    const [t] = chartsFromResult(result([
      { name: 'qps', kind: 'measured', x_label: 'MB', y_label: 'QPS', points: [[0.01, 85000], [125, 65000], [250, 5100], [3584, 1380]] },
    ]));
    expect(t!.yLog).toBe(true);
    // A CDF keeps its fraction linear; a latency spanning 0.3–600 ms goes on a log x axis.
    const [cdf] = chartsFromResult(result([
      { name: 'gets', kind: 'measured', x_label: 'latency (ms)', y_label: 'fraction of gets ≤ x', points: [[0.3, 0.001], [1, 0.5], [30, 0.99], [600, 1]] },
    ]));
    expect(cdf!.xLog).toBe(true);
    expect(cdf!.yLog).toBe(false);
    expect(cdf!.step).toBe(true);  // drawn as steps, not diagonals between measured points
    const [narrow] = chartsFromResult(result([
      { name: 'reads', kind: 'measured', x_label: 'latency (ms)', y_label: 'fraction of reads ≤ x', points: [[0.6, 0.01], [0.7, 0.5], [0.9, 1]] },
    ]));
    expect(narrow!.xLog).toBe(false);
  });

  it('marks closed outlines as regions, labelled by what their names do not share', () => {
    const square: Array<[number, number]> = [[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]];
    const [c] = chartsFromResult(result([
      { name: 'A+Disk cheapest (outline of its region)', kind: 'measured', x_label: 'TB', y_label: 'q/s', points: square },
      { name: 'A+SSD cheapest (outline of its region)', kind: 'measured', x_label: 'TB', y_label: 'q/s', points: square.slice(0, 4) },
      { name: 'A+DRAM cheapest (paper)', kind: 'paper', x_label: 'TB', y_label: 'q/s', points: square },
    ]));
    expect(c!.series.map((s) => s.region)).toEqual([true, false, false]);  // open; paper marks stay marks
    expect(c!.series.map((s) => s.label)).toEqual(['A+Disk', 'A+SSD', 'A+DRAM']);
    expect(isClosed([[1, 1], [2, 2], [1, 1]])).toBe(false);  // two vertices enclose nothing
  });

  it('gives each configuration one colour across the charts of a result', () => {
    const line = (name: string, y: string): ExperimentResult['series'][number] =>
      ({ name, kind: 'measured', x_label: 'x', y_label: y, points: [[1, 1], [2, 2]] });
    const charts = chartsFromResult(result([
      line('T+DRAM cheapest (outline)', 'q/s'), line('F+Disk cheapest (outline)', 'q/s'), line('F+SSD cheapest (outline)', 'q/s'),
      line('T+Disk cluster TCO', '$'), line('F+SSD cluster TCO', '$'), line('T+DRAM cluster TCO', '$'), line('F+Disk cluster TCO', '$'),
      line('hit ratio', 'fraction'), line('miss ratio', 'fraction'),
    ]));
    const colours = charts.map((c) => Object.fromEntries(c.series.map((s) => [s.label, s.colour])));
    expect(colours[0]).toEqual({ 'T+DRAM': 0, 'F+Disk': 1, 'F+SSD': 2 });
    expect(colours[1]).toEqual({ 'T+Disk': 3, 'F+SSD': 2, 'T+DRAM': 0, 'F+Disk': 1 });
    // A chart whose configurations appear nowhere else starts from the palette's first colour.
    expect(colours[2]).toEqual({ hit: 0, miss: 1 });
  });

  it('names the quantity without its source', () => {
    expect(quantityOf('mean response (M/M/k theory)')).toBe('mean response');
    expect(quantityOf('capacity (theory: w/(c_b + w·c_i))')).toBe('capacity');
    expect(quantityOf('throughput bound min(N/(S+Z), k/S)')).toBe('throughput bound min(N/(S+Z), k/S)');
    expect(quantityOf('plain')).toBe('plain');
  });
});

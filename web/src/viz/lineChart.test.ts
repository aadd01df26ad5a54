// @vitest-environment jsdom
// A deterministic SVG snapshot of a chart (as Observable Plot tests its marks): fixed data, fixed
// size, numbers rounded to 3 decimals. On purpose, a change to the chart's look shows up here.
import { describe, expect, it } from 'vitest';
import type { ChartSpec } from './chartSpec';
import { centroid, renderLineChart, wrapWords } from './lineChart';

const spec: ChartSpec = {
  id: 'chart-0', title: 'response time against utilisation', xLabel: 'utilisation ρ', yLabel: 'response time (µs)',
  xLog: false, yLog: false,
  series: [
    { name: 'mean response (simulated)', kind: 'measured', colour: 0, label: 'mean response', region: false, points: [[0.1, 11.2], [0.5, 20.3], [0.8, 50.2], [0.9, 101.5]] },
    { name: 'mean response (M/M/k theory)', kind: 'theory', colour: 0, label: 'mean response', region: false, points: [[0.1, 11.11], [0.3, 14.29], [0.5, 20], [0.7, 33.3], [0.8, 50], [0.9, 100]] },
    { name: 'paper value', kind: 'paper', colour: 1, label: 'paper value', region: false, points: [[0.8, 52]] },
  ],
};

function normalise(svg: string): string {
  return svg.replace(/\d+\.\d{4,}/g, (m) => String(Math.round(Number(m) * 1000) / 1000)).replace(/></g, '>\n<');
}

describe('renderLineChart', () => {
  it('matches its snapshot', async () => {
    document.body.innerHTML = '<svg id="c"></svg>';
    const svg = document.getElementById('c') as unknown as SVGSVGElement;
    renderLineChart(svg, spec, { width: 640, height: 380 });
    await expect(normalise(svg.outerHTML)).toMatchFileSnapshot('./__snapshots__/lineChart.svg');
  });

  it('draws each series in its style, with titled axes and a legend', () => {
    document.body.innerHTML = '<svg id="c"></svg>';
    const svg = document.getElementById('c') as unknown as SVGSVGElement;
    renderLineChart(svg, spec, { width: 640, height: 380 });
    const measured = svg.querySelector('g[data-kind="measured"]')!;
    expect(measured.querySelectorAll('circle').length).toBe(4);
    const theory = [...svg.querySelectorAll('g[data-kind="theory"] path')].map((p) => p.getAttribute('stroke-dasharray'));
    expect(theory).toEqual([null, '6 4']);  // the band, then its dashed centre line
    expect(svg.querySelectorAll('g[data-kind="paper"] path').length).toBe(1);
    const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('utilisation ρ');
    expect(texts).toContain('response time (µs)');
    expect(texts).toContain('mean response (M/M/k theory)');
    expect(svg.getAttribute('tabindex')).toBe('0');
  });

  it('fills a closed outline as a translucent region, without markers, named at its centroid', () => {
    document.body.innerHTML = '<svg id="c"></svg>';
    const svg = document.getElementById('c') as unknown as SVGSVGElement;
    const square: Array<[number, number]> = [[1, 1], [3, 1], [3, 3], [1, 3], [1, 1]];
    renderLineChart(svg, {
      id: 'chart-0', title: 'query rate against dataset size', xLabel: 'dataset size (TB)', yLabel: 'query rate (queries/s)',
      xLog: false, yLog: false,
      series: [
        { name: 'a line', kind: 'measured', colour: 0, label: 'a line', region: false, points: [[1, 2], [3, 2]] },
        { name: 'FAWN+SSD cheapest (outline of its region)', kind: 'measured', colour: 2, label: 'FAWN+SSD', region: true, points: square },
      ],
    }, { width: 640, height: 380 });
    const region = svg.querySelector('g[data-region]')!;
    expect(region.getAttribute('data-series')).toBe('FAWN+SSD cheapest (outline of its region)');
    expect(region.previousElementSibling?.hasAttribute('data-series')).toBe(false);  // drawn under the line
    const path = region.querySelector('path')!;
    expect(path.getAttribute('d')).toMatch(/Z$/);
    expect(path.getAttribute('fill')).toBe('#009E73');
    expect(Number(path.getAttribute('fill-opacity'))).toBeLessThan(0.5);
    expect(Number(path.getAttribute('stroke-width'))).toBeLessThanOrEqual(1);
    expect(region.querySelectorAll('circle').length).toBe(0);
    const label = [...svg.querySelectorAll('text')].find((t) => t.textContent === 'FAWN+SSD')!;
    const d = path.getAttribute('d')!.match(/-?[\d.]+/g)!.map(Number);
    const [xs, ys] = [d.filter((_, i) => i % 2 === 0), d.filter((_, i) => i % 2 === 1)];
    expect(Number(label.getAttribute('x'))).toBeCloseTo((Math.min(...xs) + Math.max(...xs)) / 2, 1);
    expect(Number(label.getAttribute('y'))).toBeCloseTo((Math.min(...ys) + Math.max(...ys)) / 2, 1);
    expect(svg.querySelector('g[data-kind="measured"]:not([data-region]) circle')).not.toBeNull();  // lines keep their dots
  });

  it('draws a CDF as steps: two points are a rise, a flat and a rise, not a diagonal', () => {
    document.body.innerHTML = '<svg id="c"></svg>';
    const svg = document.getElementById('c') as unknown as SVGSVGElement;
    renderLineChart(svg, {
      id: 'cdf', title: 'CDF', xLabel: 'latency (ms)', yLabel: 'fraction of reads ≤ x', xLog: false, yLog: false, step: true,
      series: [{ name: 'random read latency CDF (measured)', kind: 'measured', colour: 0, label: 'CDF', region: false, points: [[0.5, 0.6], [2, 1]] }],
    }, { width: 640, height: 380 });
    const d = svg.querySelector('g[data-kind="measured"] path')!.getAttribute('d')!;
    const pts = [...d.matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(pts.length).toBe(5);  // (x0, 0) → (x0, 0.6) → (x1, 0.6) → (x1, 1)
    for (let i = 1; i < pts.length; i++) {
      const [a, b] = [pts[i - 1]!, pts[i]!];
      expect(a[0] === b[0] || a[1] === b[1]).toBe(true);  // every segment horizontal or vertical
    }
  });

  it('draws a categorical x as named ticks with unjoined points', () => {
    document.body.innerHTML = '<svg id="c"></svg>';
    const svg = document.getElementById('c') as unknown as SVGSVGElement;
    renderLineChart(svg, {
      id: 'cat', title: 'throughput by system', xLabel: 'system', yLabel: 'lookups/s', xLog: false, yLog: false,
      categories: ['device alone', 'FAWN-KV', 'vector FAWN-KV'],
      series: [
        { name: 'device', kind: 'measured', colour: 0, label: 'device', region: false, points: [[0, 1.8e6]] },
        { name: 'runs', kind: 'measured', colour: 1, label: 'runs', region: false, points: [[1, 1.1e5], [2, 1.6e6]] },
        { name: 'paper', kind: 'paper', colour: 2, label: 'paper', region: false, points: [[0, 1.8e6], [1, 1.1e5], [2, 1.6e6]] },
      ],
    }, { width: 640, height: 380 });
    const ticks = [...svg.querySelectorAll('.tick text')].map((t) => t.textContent);
    expect(ticks).toEqual(expect.arrayContaining(['device alone', 'FAWN-KV', 'vector FAWN-KV']));
    expect(svg.querySelectorAll('g[data-kind="measured"] path').length).toBe(0);  // no line across categories
    expect(svg.querySelectorAll('g[data-kind="measured"] circle').length).toBe(3);
  });

  it('labels a log y axis in decimal 1-2-5 steps, not powers of two', () => {
    document.body.innerHTML = '<svg id="c"></svg>';
    const svg = document.getElementById('c') as unknown as SVGSVGElement;
    renderLineChart(svg, {
      id: 'qps', title: 'QPS', xLabel: 'dataset (MB)', yLabel: 'queries per second', xLog: false, yLog: true,
      series: [{ name: 'queries/s (measured)', kind: 'measured', colour: 0, label: 'queries/s', region: false, points: [[1, 1400], [2, 900], [3, 40], [4, 12]] }],
    }, { width: 640, height: 380 });
    const axes = svg.querySelectorAll('g > g[font-size="11"]');
    const yLabels = [...axes[1]!.querySelectorAll('.tick text')].map((t) => t.textContent);
    expect(yLabels.length).toBeGreaterThanOrEqual(3);
    for (const l of yLabels) expect(l).toMatch(/^[125]0*(\.\d+)?[KkM]?$|^[125]\d*( [KM])?$/);
    expect(yLabels).not.toContain('16');
    expect(yLabels).not.toContain('512');
  });

  it('finds the centroid of a polygon', () => {
    expect(centroid([[0, 0], [4, 0], [4, 2], [0, 2], [0, 0]])).toEqual([2, 1]);
    expect(centroid([[0, 0], [6, 0], [0, 6]])).toEqual([2, 2]);
    expect(centroid([[1, 1], [3, 3]])).toEqual([2, 2]);  // no area: the vertices' mean
  });

  it('moves a readout along the points with the keyboard', () => {
    document.body.innerHTML = '<svg id="c"></svg>';
    const svg = document.getElementById('c') as unknown as SVGSVGElement;
    const seen: Array<string | null> = [];
    renderLineChart(svg, spec, { width: 640, height: 380, onFocus: (t) => seen.push(t) });
    svg.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
    svg.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
    svg.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(seen[0]).toContain('mean response (simulated)');
    expect(seen[0]).toContain('utilisation ρ: 0.1');
    expect(seen[1]).toContain('response time (µs): 20.3');
    expect(seen[2]).toBeNull();
  });
});

describe('chart sizes', () => {
  const draw = (opts: { width: number; height: number; text?: number }) => {
    document.body.innerHTML = '<svg id="c"></svg>';
    const svg = document.getElementById('c') as unknown as SVGSVGElement;
    renderLineChart(svg, spec, opts);
    return svg;
  };
  const sizes = (svg: SVGSVGElement) => [...svg.querySelectorAll('[font-size]')].map((e) => Number(e.getAttribute('font-size')));

  it('scales every text with the text option (presentation mode: tick labels 16.5 px)', () => {
    const normal = sizes(draw({ width: 1200, height: 520 }));
    const big = sizes(draw({ width: 1200, height: 520, text: 1.5 }));
    expect(Math.min(...normal)).toBe(11);
    expect(Math.min(...big)).toBe(16.5);
    expect(big).toEqual(normal.map((s) => s * 1.5));
  });

  it('wraps the title and starts it at the left edge on a phone-wide chart', () => {
    const svg = draw({ width: 280, height: 370 });
    const title = svg.querySelector(':scope > text')!;
    expect(title.getAttribute('x')).toBe('8');
    const lines = [...title.querySelectorAll('tspan')].map((t) => t.textContent);
    expect(lines).toEqual(['response time against', 'utilisation']);
    // A wide chart keeps it on one line, over the plot.
    expect(draw({ width: 640, height: 380 }).querySelector(':scope > text')!.querySelectorAll('tspan')).toHaveLength(0);
  });

  it('wraps words to a width', () => {
    expect(wrapWords('a bb ccc dddd', 6)).toEqual(['a bb', 'ccc', 'dddd']);
    expect(wrapWords('averyveryverylongword x', 5)).toEqual(['averyveryverylongword', 'x']);
    expect(wrapWords('', 5)).toEqual(['']);
  });
});

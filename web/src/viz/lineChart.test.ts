// @vitest-environment jsdom
// A deterministic SVG snapshot of a chart (as Observable Plot tests its marks): fixed data, fixed
// size, numbers rounded to 3 decimals. On purpose, a change to the chart's look shows up here.
import { describe, expect, it } from 'vitest';
import type { ChartSpec } from './chartSpec';
import { renderLineChart } from './lineChart';

const spec: ChartSpec = {
  id: 'chart-0', title: 'response time against utilisation', xLabel: 'utilisation ρ', yLabel: 'response time (µs)',
  xLog: false, yLog: false,
  series: [
    { name: 'mean response (simulated)', kind: 'measured', colour: 0, points: [[0.1, 11.2], [0.5, 20.3], [0.8, 50.2], [0.9, 101.5]] },
    { name: 'mean response (M/M/k theory)', kind: 'theory', colour: 0, points: [[0.1, 11.11], [0.3, 14.29], [0.5, 20], [0.7, 33.3], [0.8, 50], [0.9, 100]] },
    { name: 'paper value', kind: 'paper', colour: 1, points: [[0.8, 52]] },
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

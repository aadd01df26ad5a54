// @vitest-environment jsdom
// The disk view from fixture snapshots: geometry (cylinders to radii, the head on its arm, the
// platter's rotation) and what the SVG shows.
import { describe, expect, it } from 'vitest';
import { diskSnapshot } from './deviceFixtures';
import { R_IN, R_OUT, cylinderRadius, headPoint, platterPoint, renderDiskView } from './diskView';

function svgEl(): SVGSVGElement {
  document.body.innerHTML = '<svg id="d"></svg>';
  return document.getElementById('d') as unknown as SVGSVGElement;
}

function normalise(svg: string): string {
  return svg.replace(/\d+\.\d{4,}/g, (m) => String(Math.round(Number(m) * 1000) / 1000)).replace(/></g, '>\n<');
}

const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

describe('disk geometry', () => {
  it('puts cylinder 0 on the outside and the last cylinder on the inside', () => {
    expect(cylinderRadius(0, 100000)).toBe(R_OUT);
    expect(cylinderRadius(99999, 100000)).toBe(R_IN);
    expect(cylinderRadius(50000, 100000)).toBeGreaterThan(R_IN);
    expect(cylinderRadius(-5, 100000)).toBe(R_OUT);
  });

  it('swings the head onto the track of its cylinder', () => {
    for (const head of [0, 25000, 51234.5, 99999]) {
      const h = headPoint({ head, cylinders: 100000 });
      expect(h.r).toBeCloseTo(cylinderRadius(head, 100000), 6);
    }
  });

  it('brings a sector under the head when the platter angle equals the sector angle', () => {
    const snap = diskSnapshot({ head: 70000, angle: 0.6 });
    const h = headPoint(snap);
    expect(dist(platterPoint(snap, 70000, 0.6), h)).toBeLessThan(1e-9);
    // A quarter turn before, the sector is a quarter of the way round.
    const before = platterPoint({ ...snap, angle: 0.35 }, 70000, 0.6);
    expect(dist(before, h)).toBeCloseTo(Math.SQRT2 * h.r, 6);
  });
});

describe('renderDiskView', () => {
  it('matches its snapshot', async () => {
    const svg = svgEl();
    renderDiskView(svg, diskSnapshot());
    await expect(normalise(svg.outerHTML)).toMatchFileSnapshot('./__snapshots__/diskView.svg');
  });

  it('shows the head, the target, the queue and the power state, labelled', () => {
    const svg = svgEl();
    const snap = diskSnapshot();
    renderDiskView(svg, snap);
    expect(svg.querySelectorAll('g.req').length).toBe(3);
    expect([...svg.querySelectorAll('g.req text')].map((t) => t.textContent)).toEqual(['1', '2', '3']);
    expect(svg.querySelectorAll('path.target-sector').length).toBe(1);
    expect(svg.querySelector('g.target-track circle')!.getAttribute('r')).toBe(cylinderRadius(70000, 100000).toFixed(1));
    const text = [...svg.querySelectorAll('text')].map((t) => t.textContent).join('\n');
    expect(text).toContain('Disk: disk-7200, seen from above');
    expect(text).toContain('7,200 rpm (one turn = 8.33 ms)');
    expect(text).toContain('● active');
    expect(text).toContain('drawing 8.27 W');
    expect(text).toContain('Now: seeking');
    expect(text).toContain('cylinder 70,000 · ends in 1 ms');
    expect(text).toContain('head · cyl 51,235');
    expect(text).toContain('cyl 0 (outer)');
    expect(svg.getAttribute('data-head')).toBe('51235');
  });

  it('updates in place: the head moves, the platter turns, the queue drains, the disk stops', () => {
    const svg = svgEl();
    renderDiskView(svg, diskSnapshot());
    const spin0 = svg.querySelector('g.spin')!.getAttribute('transform');
    const head0 = svg.querySelector('rect.head')!.getAttribute('transform');
    renderDiskView(svg, diskSnapshot({ head: 10, angle: 0.5, queue: [], current: null, state: 'standby', watts: 2.48 }));
    expect(svg.querySelector('g.spin')!.getAttribute('transform')).not.toBe(spin0);
    expect(svg.querySelector('rect.head')!.getAttribute('transform')).not.toBe(head0);
    expect(svg.querySelectorAll('g.req').length).toBe(0);
    expect(svg.querySelectorAll('path.target-sector').length).toBe(0);
    expect(svg.getAttribute('data-state')).toBe('standby');
    expect(svg.querySelector('text.badge-state')!.textContent).toBe('● standby (stopped)');
    expect(svg.querySelectorAll('g.static').length).toBe(1);
  });
});

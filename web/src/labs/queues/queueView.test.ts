// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { QueueSnapshot } from './queueTypes';
import { NARROW_LAYOUT, QueueAnimator, queueLayoutFor, renderQueueView, serverLayout, WIDE_LAYOUT } from './queueView';

function snap(queue: number[], serving: Array<number | null>, recent: number[] = [], now = 1000): QueueSnapshot {
  return {
    version: 1, now_ns: now,
    config: { servers: serving.length, arrival_rate_per_s: 1000, service_us: 10, service: 'exponential', queue_limit: 100 },
    servers: serving.map((id) => (id === null ? { busy: false } : { busy: true, id, arrival_ns: 0, start_ns: 0, done_ns: 2000 })),
    queue_length: queue.length,
    queue: queue.map((id) => [id, 0] as [number, number]),
    recent: recent.map((id) => ({ id, server: 0, arrival_ns: 0, start_ns: 0, done_ns: now })),
    counters: { window_start_ns: 0, arrived: 0, completed: 0, dropped: 0, throughput_per_s: 0, mean_response_us: 0, p50_response_us: 0,
      p99_response_us: 0, mean_in_system: 0, littles_x_times_r: 0, utilisation: 0 },
    theory: { rho: 0.5, stable: true },
  };
}

describe('QueueAnimator', () => {
  it('tracks each request from the source to its slot or server, then out', () => {
    const a = new QueueAnimator();
    let f = a.frame(snap([3, 4], [2]), 0);
    expect(f.dots.map((d) => [d.id, d.state])).toEqual([[3, 'waiting'], [4, 'waiting'], [2, 'serving']]);
    for (let t = 16; t < 2000; t += 16) f = a.frame(snap([3, 4], [2]), t);
    const server = serverLayout(1)[0]!;
    const two = f.dots.find((d) => d.id === 2)!;
    expect(two.x).toBeCloseTo(server.x, 3);
    expect(f.servers[0]!.progress).toBeCloseTo(0.5, 6);
    // Request 2 finishes: it flies out and fades, then disappears.
    f = a.frame(snap([4], [3], [2]), 2000);
    const leaving = f.dots.find((d) => d.id === 2)!;
    expect(leaving.state).toBe('done');
    expect(leaving.x).toBeCloseTo(server.x, 6);  // it leaves from its server
    f = a.frame(snap([4], [3], [2]), 2000 + 10_000);
    expect(f.dots.some((d) => d.id === 2)).toBe(false);
  });

  it('counts waiting requests beyond the lane', () => {
    const f = new QueueAnimator().frame(snap(Array.from({ length: 50 }, (_, i) => i), [null]), 0);
    expect(f.hidden).toBeGreaterThan(0);
    expect(f.dots.length + f.hidden).toBe(50);
  });
});

describe('renderQueueView', () => {
  it('draws one circle per dot and one group per server', () => {
    document.body.innerHTML = '<svg id="s"></svg>';
    const svg = document.getElementById('s') as unknown as SVGSVGElement;
    const s = snap([5, 6, 7], [1, null]);
    renderQueueView(svg, new QueueAnimator().frame(s, 0), s);
    expect(svg.querySelectorAll('g.dots circle').length).toBe(4);
    expect(svg.querySelectorAll('g.server').length).toBe(2);
    renderQueueView(svg, new QueueAnimator().frame(snap([5], [1, null]), 0), s);
    expect(svg.querySelectorAll('g.dots circle').length).toBe(2);
    expect(svg.querySelectorAll('g.static').length).toBe(1);
  });
});

describe('the narrow layout', () => {
  it('is chosen for a phone-wide view and keeps every part inside its width', () => {
    expect(queueLayoutFor(330)).toBe(NARROW_LAYOUT);
    expect(queueLayoutFor(800)).toBe(WIDE_LAYOUT);
    const n = NARROW_LAYOUT;
    expect(n.source).toBeLessThan(n.laneLeft);
    expect(n.laneRight).toBeLessThan(n.server - 28);  // the lane ends before the biggest server circle
    expect(n.exit).toBeLessThan(n.width);
    expect(n.slots).toBeGreaterThan(5);
    for (const s of serverLayout(4, n)) expect(s.x + s.r).toBeLessThan(n.exit);
  });

  it('draws the view in its own viewBox, redrawing the static parts when the layout changes', () => {
    document.body.innerHTML = '<svg id="s"></svg>';
    const svg = document.getElementById('s') as unknown as SVGSVGElement;
    const s = snap(Array.from({ length: 30 }, (_, i) => i), [100]);
    const f = new QueueAnimator().frame(s, 0, 0.5, NARROW_LAYOUT);
    renderQueueView(svg, f, s, NARROW_LAYOUT);
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${NARROW_LAYOUT.width} 220`);
    expect(f.hidden).toBe(30 - NARROW_LAYOUT.slots);
    for (const d of f.dots) expect(d.x).toBeLessThanOrEqual(NARROW_LAYOUT.width);
    renderQueueView(svg, new QueueAnimator().frame(s, 0), s);
    expect(svg.getAttribute('viewBox')).toBe(`0 0 ${WIDE_LAYOUT.width} 220`);
    expect(svg.querySelectorAll('g.static').length).toBe(1);
  });
});

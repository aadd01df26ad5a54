/**
 * The live queue view: requests as dots arriving from a source, waiting in a FIFO lane,
 * being served (a ring fills as service progresses) and leaving.
 *
 * Two parts. QueueAnimator turns successive model snapshots into per-dot positions, easing
 * each dot toward where the model says it is (so dots glide between snapshots) and fading
 * departures out over a fixed wall-clock time — view state only, never model state.
 * renderQueueView draws one frame with D3 (dots joined by request id). No React state.
 */
import * as d3 from 'd3';
import type { QueueSnapshot } from './queueTypes';

/** Job states in the live queue view (colours from the shared palette, viz/palette.ts). */
export const STATE_COLOURS = { waiting: '#0072B2', serving: '#E69F00', done: '#009E73', dropped: '#D55E00' } as const;

/**
 * Where things sit along the view (user units). The wide layout is for a panel; the narrow one
 * (a phone's ~330 px) keeps the same parts in about half the width with a shorter lane, so the
 * view is shown at ~0.7× rather than ~0.37× and its text stays readable.
 */
export interface QueueLayout {
  width: number;
  source: number;
  laneLeft: number;
  laneRight: number;
  server: number;
  exit: number;
  slots: number;
  laneLabel: string;
}

const SLOT = 22;

function layoutOf(width: number, source: number, laneLeft: number, laneRight: number, server: number, exit: number,
  laneLabel: string): QueueLayout {
  return { width, source, laneLeft, laneRight, server, exit, slots: Math.floor((laneRight - laneLeft - 10) / SLOT), laneLabel };
}

export const WIDE_LAYOUT = layoutOf(900, 60, 110, 560, 690, 860, 'FIFO queue → head at the right');
export const NARROW_LAYOUT = layoutOf(470, 46, 80, 290, 370, 446, 'FIFO queue → head');

/** The layout for a view shown `shownWidth` CSS px wide. */
export function queueLayoutFor(shownWidth: number): QueueLayout {
  return shownWidth > 0 && shownWidth < 600 ? NARROW_LAYOUT : WIDE_LAYOUT;
}

/** The view's height for k servers: compact for one server, taller for many. */
export function viewHeight(k: number): number {
  return Math.max(220, Math.min(520, 60 + k * 44));
}

function laneY(k: number): number {
  return viewHeight(k) / 2;
}

export interface Dot {
  id: number;
  x: number;
  y: number;
  state: 'waiting' | 'serving' | 'done';
  opacity: number;
}

export interface ServerSlot {
  x: number;
  y: number;
  r: number;
  busy: boolean;
  /** Fraction of the current service done, 0..1. */
  progress: number;
}

export interface QueueFrame {
  dots: Dot[];
  servers: ServerSlot[];
  /** Waiting requests not drawn because the lane is full. */
  hidden: number;
}

export function serverLayout(k: number, layout: QueueLayout = WIDE_LAYOUT): Array<{ x: number; y: number; r: number }> {
  const r = Math.max(11, Math.min(28, 150 / k));
  const gap = Math.min(2.6 * r, (viewHeight(k) - 40) / Math.max(1, k));
  const top = laneY(k) - ((k - 1) * gap) / 2;
  return Array.from({ length: k }, (_, i) => ({ x: layout.server, y: top + i * gap, r }));
}

interface Tracked {
  x: number;
  y: number;
  state: Dot['state'];
  leftAt?: number; // wall ms when it departed
  fromX?: number;
  fromY?: number;
}

const DEPART_MS = 450;

export class QueueAnimator {
  private tracked = new Map<number, Tracked>();

  /** Clears all motion (after a reset). */
  reset(): void {
    this.tracked.clear();
  }

  /**
   * Advances the animation to wall time `wallMs` given the latest snapshot. `ease` in (0, 1]:
   * the fraction of the remaining distance a dot covers this frame (1: jump).
   */
  frame(snap: QueueSnapshot, wallMs: number, ease = 0.5, view: QueueLayout = WIDE_LAYOUT): QueueFrame {
    const layout = serverLayout(snap.config.servers, view);
    const LANE_Y = laneY(snap.config.servers);
    const present = new Set<number>();
    const move = (id: number, tx: number, ty: number, state: Dot['state']) => {
      present.add(id);
      const t = this.tracked.get(id);
      if (!t) {
        this.tracked.set(id, { x: view.source, y: LANE_Y, state });
        return;
      }
      t.x += (tx - t.x) * ease;
      t.y += (ty - t.y) * ease;
      t.state = state;
    };
    // The head of the queue waits next to the servers.
    snap.queue.slice(0, view.slots).forEach(([id], i) => move(id, view.laneRight - i * SLOT, LANE_Y, 'waiting'));
    snap.servers.forEach((s, i) => {
      if (s.busy && s.id !== undefined) move(s.id, layout[i]!.x, layout[i]!.y, 'serving');
    });
    for (const d of snap.recent) {
      const t = this.tracked.get(d.id);
      if (t && t.leftAt === undefined && !present.has(d.id)) {
        // It leaves from its server, even if the glide there had not finished (a fast service).
        const from = layout[d.server];
        t.leftAt = wallMs;
        t.fromX = from ? from.x : t.x;
        t.fromY = from ? from.y : t.y;
        t.state = 'done';
      }
    }
    const dots: Dot[] = [];
    for (const [id, t] of this.tracked) {
      if (present.has(id)) {
        dots.push({ id, x: t.x, y: t.y, state: t.state, opacity: 1 });
        continue;
      }
      if (t.leftAt === undefined) {
        // Left the lane without a recorded departure (dropped, or scrolled out): fade in place.
        t.leftAt = wallMs;
        t.fromX = t.x;
        t.fromY = t.y;
      }
      const f = (wallMs - t.leftAt) / DEPART_MS;
      if (f >= 1) {
        this.tracked.delete(id);
        continue;
      }
      const x = t.state === 'done' ? t.fromX! + (view.exit - t.fromX!) * f : t.fromX!;
      const y = t.state === 'done' ? t.fromY! + (LANE_Y - t.fromY!) * f : t.fromY!;
      dots.push({ id, x, y, state: t.state, opacity: 1 - f });
    }
    const servers: ServerSlot[] = snap.servers.map((s, i) => {
      const span = (s.done_ns ?? 0) - (s.start_ns ?? 0);
      const progress = s.busy && span > 0 ? Math.min(1, Math.max(0, (snap.now_ns - s.start_ns!) / span)) : 0;
      return { ...layout[i]!, busy: s.busy, progress };
    });
    return { dots, servers, hidden: Math.max(0, snap.queue_length - view.slots) };
  }
}

const arc = d3.arc<{ r: number; progress: number }>()
  .innerRadius((d) => d.r + 3)
  .outerRadius((d) => d.r + 7)
  .startAngle(0)
  .endAngle((d) => 2 * Math.PI * d.progress);

/** Draws the static parts (again when k changes) and the frame's dots and servers. */
export function renderQueueView(svgEl: SVGSVGElement, frame: QueueFrame, snap: QueueSnapshot,
  view: QueueLayout = WIDE_LAYOUT): void {
  const svg = d3.select(svgEl);
  const k = snap.config.servers;
  const key = `${k}/${view.width}`;
  if (svg.attr('data-layout') !== key) {
    svg.selectAll('*').remove();
    const H = viewHeight(k);
    const LANE_Y = laneY(k);
    svg.attr('data-k', k).attr('data-layout', key).attr('viewBox', `0 0 ${view.width} ${H}`).attr('font-family', 'system-ui, sans-serif');
    const s = svg.append('g').attr('class', 'static');
    s.append('rect').attr('width', view.width).attr('height', H).attr('fill', '#fbfbfd');
    s.append('rect').attr('x', view.laneLeft).attr('y', LANE_Y - 17).attr('width', view.laneRight - view.laneLeft + 15).attr('height', 34)
      .attr('rx', 7).attr('fill', '#eef2f7').attr('stroke', '#c9d3df');
    const label = (x: number, y: number, text: string, anchor = 'middle') =>
      s.append('text').attr('x', x).attr('y', y).attr('text-anchor', anchor).attr('font-size', 16).attr('fill', '#333').text(text);
    label(view.source, LANE_Y - 28, 'arrivals');
    label((view.laneLeft + view.laneRight) / 2, LANE_Y + 42, view.laneLabel);
    label(view.exit, LANE_Y - 28, 'done');
    const defs = svg.append('defs');
    defs.append('marker').attr('id', 'arrow').attr('viewBox', '0 0 10 10').attr('refX', 9).attr('refY', 5)
      .attr('markerWidth', 7).attr('markerHeight', 7).attr('orient', 'auto')
      .append('path').attr('d', 'M0,0 L10,5 L0,10 z').attr('fill', '#999');
    s.append('path').attr('d', `M${view.source + 14},${LANE_Y} L${view.laneLeft - 10},${LANE_Y}`).attr('stroke', '#999')
      .attr('marker-end', 'url(#arrow)');
    s.append('circle').attr('cx', view.source).attr('cy', LANE_Y).attr('r', 13).attr('fill', '#fff').attr('stroke', '#555');
    svg.append('g').attr('class', 'servers');
    svg.append('g').attr('class', 'dots');
    svg.append('text').attr('class', 'hidden-count').attr('x', view.laneLeft + 10).attr('y', LANE_Y - 26).attr('font-size', 14).attr('fill', '#0072B2');
    svg.append('text').attr('class', 'source-rate').attr('x', view.source).attr('y', LANE_Y + 42).attr('text-anchor', 'middle')
      .attr('font-size', 14).attr('fill', '#555');
  }

  const servers = svg.select<SVGGElement>('g.servers').selectAll<SVGGElement, ServerSlot>('g.server')
    .data(frame.servers)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'server');
      g.append('circle').attr('class', 'body');
      g.append('path').attr('class', 'ring');
      g.append('text').attr('class', 'label');
      return g;
    });
  servers.attr('transform', (d) => `translate(${d.x},${d.y})`);
  servers.select('circle.body').attr('r', (d) => d.r).attr('fill', (d) => (d.busy ? '#fff4e0' : '#ffffff'))
    .attr('stroke', (d) => (d.busy ? STATE_COLOURS.serving : '#999')).attr('stroke-width', 2);
  servers.select('path.ring').attr('d', (d) => (d.busy ? arc(d) : '')).attr('fill', STATE_COLOURS.serving);
  // Narrow: the label sits above the lane's end (beside the server it would cover the queue's head).
  const narrow = view.width < WIDE_LAYOUT.width;
  servers.select('text.label').attr('x', (d) => (narrow ? -d.r - 4 : -d.r - 10)).attr('y', narrow ? -23 : 5).attr('text-anchor', 'end').attr('font-size', 14).attr('fill', '#555')
    .text((_, i) => (frame.servers.length <= 8 ? `server ${i + 1}` : ''));

  svg.select<SVGGElement>('g.dots').selectAll<SVGCircleElement, Dot>('circle')
    .data(frame.dots, (d) => String(d.id))
    .join('circle')
    .attr('r', 8)
    .attr('cx', (d) => d.x.toFixed(1))
    .attr('cy', (d) => d.y.toFixed(1))
    .attr('fill', (d) => STATE_COLOURS[d.state])
    .attr('opacity', (d) => d.opacity.toFixed(2));

  svg.select('text.hidden-count').text(frame.hidden > 0 ? `+${frame.hidden} more waiting` : '');
  svg.select('text.source-rate').text(`λ = ${Math.round(snap.config.arrival_rate_per_s).toLocaleString('en-US')}/s`);
}

/**
 * The live disk view: the platter seen from above, its tracks as rings (cylinder 0 at the
 * outer edge), the arm swinging the head to its cylinder, the platter turned by its angle,
 * the sector the request in service waits for, the queued requests at their (cylinder,
 * sector), and a badge with the power state and watts.
 *
 * A pure function of the snapshot: platterPoint maps (cylinder, sector angle) to the page at
 * the snapshot's rotation; renderDiskView draws it with D3. Convention: a sector at angle s
 * (turns) passes under the head when the platter's angle equals s; the platter turns
 * anticlockwise on the page.
 */
import * as d3 from 'd3';
import type { DiskSnapshot } from './deviceTypes';
import { fmtNs } from '../../viz/format';
import { DISK_STATE_COLOURS, FLASH_COLOURS } from './devicePalette';

export const DISK_W = 960;
export const DISK_H = 580;
const CX = 300;
const CY = 310;
/** Outer edge of the data area (cylinder 0) and inner edge (the last cylinder). */
export const R_OUT = 240;
export const R_IN = 86;
const HUB_R = 52;
/** The arm's pivot: PIVOT_D from the spindle, towards PIVOT_DIR (radians, y down); arm length ARM_L. */
const PIVOT_D = 335;
const PIVOT_DIR = (38 * Math.PI) / 180;
const ARM_L = 300;
const PIVOT = { x: CX + PIVOT_D * Math.cos(PIVOT_DIR), y: CY + PIVOT_D * Math.sin(PIVOT_DIR) };
const WEDGES = 12;
const PANEL_X = 610;

/** Radius of a cylinder's track: cylinder 0 on the outside, the last one on the inside. */
export function cylinderRadius(cylinder: number, cylinders: number): number {
  const f = Math.min(1, Math.max(0, cylinder / Math.max(1, cylinders - 1)));
  return R_OUT - f * (R_OUT - R_IN);
}

/** The head's angle (radians, y down) at radius r: where the arm's circle crosses the track. */
export function headAngle(r: number): number {
  const cosPhi = (r * r + PIVOT_D * PIVOT_D - ARM_L * ARM_L) / (2 * r * PIVOT_D);
  return PIVOT_DIR - Math.acos(Math.min(1, Math.max(-1, cosPhi)));
}

/** Where the head is on the page. */
export function headPoint(snap: Pick<DiskSnapshot, 'head' | 'cylinders'>): { x: number; y: number; r: number; theta: number } {
  const r = cylinderRadius(snap.head, snap.cylinders);
  const theta = headAngle(r);
  return { x: CX + r * Math.cos(theta), y: CY + r * Math.sin(theta), r, theta };
}

/**
 * Where a sector (cylinder, angle in turns) is on the page at the snapshot's rotation: under
 * the head's bearing when the platter's angle equals the sector's.
 */
export function platterPoint(snap: Pick<DiskSnapshot, 'head' | 'cylinders' | 'angle'>, cylinder: number, sectorAngle: number): { x: number; y: number } {
  const r = cylinderRadius(cylinder, snap.cylinders);
  const theta = headPoint(snap).theta + 2 * Math.PI * (sectorAngle - snap.angle);
  return { x: CX + r * Math.cos(theta), y: CY + r * Math.sin(theta) };
}

const PHASE_TEXT = { seek: 'seeking', rotate: 'waiting for its sector', transfer: 'transferring' } as const;
const STATE_TEXT = { active: 'active', idle: 'idle (spinning)', standby: 'standby (stopped)', 'spinning-up': 'spinning up' } as const;

function drawStatic(svg: d3.Selection<SVGSVGElement, unknown, null, undefined>, snap: DiskSnapshot): void {
  svg.selectAll('*').remove();
  svg.attr('viewBox', `0 0 ${DISK_W} ${DISK_H}`).attr('font-family', 'system-ui, sans-serif');
  const s = svg.append('g').attr('class', 'static');
  s.append('rect').attr('width', DISK_W).attr('height', DISK_H).attr('fill', '#fbfbfd');
  s.append('text').attr('x', 16).attr('y', 32).attr('font-size', 25).attr('font-weight', 700).attr('fill', '#1a1a1a')
    .text(`Disk: ${snap.profile}, seen from above`);
  s.append('text').attr('x', 16).attr('y', 58).attr('font-size', 17).attr('fill', '#444')
    .text(`${snap.rpm.toLocaleString('en-US')} rpm (one turn = ${fmtNs(60e9 / snap.rpm)}) · ${snap.cylinders.toLocaleString('en-US')} cylinders`);

  // The platter: a disc, wedges that turn with it, tracks as rings, the hub.
  s.append('circle').attr('class', 'platter').attr('cx', CX).attr('cy', CY).attr('r', R_OUT + 8).attr('fill', '#e4e8ee').attr('stroke', '#8a94a3').attr('stroke-width', 1.5);
  const spin = svg.append('g').attr('class', 'spin');
  const wedge = d3.arc<number>().innerRadius(R_IN - 4).outerRadius(R_OUT + 4)
    .startAngle((i) => (i * 2 * Math.PI) / WEDGES).endAngle((i) => ((i + 1) * 2 * Math.PI) / WEDGES);
  spin.selectAll('path.wedge').data(d3.range(WEDGES)).join('path').attr('class', 'wedge')
    .attr('d', (i) => wedge(i)).attr('fill', (i) => (i % 2 ? '#d9dee6' : '#eceff4'));
  // The index mark: sector angle 0, a white stripe painted on the platter so the turning shows.
  for (const [colour, width] of [['#5b6370', 7], ['#ffffff', 4]] as const) {
    spin.append('line').attr('class', 'index').attr('x1', 0).attr('y1', -(R_IN - 2)).attr('x2', 0).attr('y2', -(R_OUT + 6))
      .attr('stroke', colour).attr('stroke-width', width);
  }
  const rings = svg.append('g').attr('class', 'tracks');
  for (let i = 0; i <= 8; i++) {
    rings.append('circle').attr('cx', CX).attr('cy', CY).attr('r', R_IN + ((R_OUT - R_IN) * i) / 8)
      .attr('fill', 'none').attr('stroke', '#a9b2be').attr('stroke-width', i === 0 || i === 8 ? 1.2 : 0.7);
  }
  s.append('circle').attr('cx', CX).attr('cy', CY).attr('r', HUB_R).attr('fill', '#b7bfca').attr('stroke', '#7b8594');
  s.append('text').attr('x', CX).attr('y', CY + 5).attr('text-anchor', 'middle').attr('font-size', 15).attr('fill', '#333').text('spindle');
  // The cylinder scale along the left radius (above the platter's turning parts).
  const scale = svg.append('g').attr('class', 'cyl-scale').attr('font-size', 16).attr('font-weight', 600).attr('fill', '#1a1a1a')
    .attr('stroke', '#fbfbfd').attr('stroke-width', 4).attr('paint-order', 'stroke');
  const rOuter = cylinderRadius(0, snap.cylinders);
  const rInner = cylinderRadius(snap.cylinders - 1, snap.cylinders);
  scale.append('line').attr('x1', CX - rOuter).attr('x2', CX - rInner).attr('y1', CY).attr('y2', CY).attr('stroke', '#1a1a1a').attr('stroke-width', 1.5);
  for (const r of [rOuter, rInner]) scale.append('line').attr('x1', CX - r).attr('x2', CX - r).attr('y1', CY - 7).attr('y2', CY + 7).attr('stroke', '#1a1a1a').attr('stroke-width', 1.5);
  scale.append('text').attr('x', CX - rOuter + 4).attr('y', CY - 12).text('cyl 0 (outer)');
  scale.append('text').attr('x', CX - rInner - 4).attr('y', CY + 24).attr('text-anchor', 'end')
    .text(`cyl ${(snap.cylinders - 1).toLocaleString('en-US')} (inner)`);

  svg.append('g').attr('class', 'target-track');
  svg.append('g').attr('class', 'queue');
  svg.append('g').attr('class', 'target');
  // The arm: from the pivot to the head.
  const arm = svg.append('g').attr('class', 'arm');
  arm.append('line').attr('class', 'arm-line').attr('stroke', '#3b4350').attr('stroke-width', 9).attr('stroke-linecap', 'round');
  arm.append('circle').attr('cx', PIVOT.x).attr('cy', PIVOT.y).attr('r', 16).attr('fill', '#5b6370').attr('stroke', '#2b3038');
  arm.append('rect').attr('class', 'head').attr('width', 18).attr('height', 12).attr('x', -9).attr('y', -6).attr('rx', 2)
    .attr('fill', '#1a1a1a').attr('stroke', '#fff').attr('stroke-width', 1.5);
  arm.append('text').attr('class', 'head-label').attr('font-size', 17).attr('font-weight', 700).attr('fill', '#1a1a1a')
    .attr('text-anchor', 'end').attr('stroke', '#fbfbfd').attr('stroke-width', 4).attr('paint-order', 'stroke');

  // The right-hand panel: power badge, what the disk is doing, the legend.
  const p = svg.append('g').attr('class', 'panel').attr('transform', `translate(${PANEL_X},0)`);
  p.append('rect').attr('class', 'badge').attr('x', 0).attr('y', 78).attr('width', 330).attr('height', 62).attr('rx', 10);
  p.append('text').attr('class', 'badge-state').attr('x', 16).attr('y', 105).attr('font-size', 22).attr('font-weight', 700).attr('fill', '#fff');
  p.append('text').attr('class', 'badge-watts').attr('x', 16).attr('y', 129).attr('font-size', 18).attr('fill', '#fff');
  p.append('text').attr('class', 'phase').attr('x', 0).attr('y', 176).attr('font-size', 19).attr('font-weight', 700).attr('fill', '#1a1a1a');
  p.append('text').attr('class', 'phase-detail').attr('x', 0).attr('y', 201).attr('font-size', 17).attr('fill', '#333');
  p.append('text').attr('class', 'queue-count').attr('x', 0).attr('y', 229).attr('font-size', 17).attr('fill', '#333');

  const lg = p.append('g').attr('class', 'legend').attr('transform', 'translate(0,280)').attr('font-size', 17).attr('fill', '#333');
  lg.append('text').attr('x', 0).attr('y', 0).attr('font-weight', 700).text('Legend');
  const row = (y: number, draw: (g: d3.Selection<SVGGElement, unknown, null, undefined>) => void, label: string) => {
    const g = lg.append('g').attr('transform', `translate(0,${y})`);
    draw(g);
    g.append('text').attr('x', 32).attr('y', 6).text(label);
  };
  row(30, (g) => g.append('rect').attr('x', 3).attr('y', -6).attr('width', 18).attr('height', 12).attr('rx', 2).attr('fill', '#1a1a1a'), 'the head, on its arm');
  row(62, (g) => g.append('path').attr('transform', 'translate(12,0)').attr('d', d3.symbol(d3.symbolDiamond, 170)()!).attr('fill', FLASH_COLOURS.victim).attr('stroke', '#fff'),
    'sector being read next');
  row(94, (g) => g.append('circle').attr('cx', 12).attr('r', 12).attr('fill', 'none').attr('stroke', FLASH_COLOURS.victim).attr('stroke-dasharray', '5 3').attr('stroke-width', 2),
    'its track (seek target)');
  row(126, (g) => g.append('circle').attr('cx', 12).attr('r', 10).attr('fill', '#0072B2').attr('stroke', '#fff'), 'waiting request (1 = oldest)');
  row(158, (g) => {
    g.append('line').attr('x1', 3).attr('x2', 21).attr('y1', 0).attr('y2', 0).attr('stroke', '#5b6370').attr('stroke-width', 7);
    g.append('line').attr('x1', 4).attr('x2', 20).attr('y1', 0).attr('y2', 0).attr('stroke', '#fff').attr('stroke-width', 4);
  }, 'index stripe: platter turns ↺');
}

/** Draws the disk as the snapshot describes it. */
export function renderDiskView(svgEl: SVGSVGElement, snap: DiskSnapshot): void {
  const svg = d3.select(svgEl);
  const key = `${snap.profile}|${snap.cylinders}|${snap.rpm}`;
  if (svg.attr('data-layout') !== key) {
    drawStatic(svg, snap);
    svg.attr('data-layout', key);
  }
  const head = headPoint(snap);
  const stopped = snap.state === 'standby';

  // The platter turns: a point at sector angle s sits at the head's bearing + 2π(s − angle).
  const deg = ((head.theta + Math.PI / 2 - 2 * Math.PI * snap.angle) * 180) / Math.PI;
  svg.select('g.spin').attr('transform', `translate(${CX},${CY}) rotate(${deg.toFixed(2)})`).attr('opacity', stopped ? 0.55 : 1);

  const cur = snap.current;
  svg.select<SVGGElement>('g.target-track').selectAll<SVGCircleElement, number>('circle')
    .data(cur ? [cylinderRadius(cur.cylinder, snap.cylinders)] : [])
    .join('circle')
    .attr('cx', CX).attr('cy', CY).attr('r', (r) => r.toFixed(1))
    .attr('fill', 'none').attr('stroke', FLASH_COLOURS.victim).attr('stroke-width', 2.5).attr('stroke-dasharray', '7 4');
  const target = cur ? platterPoint(snap, cur.cylinder, cur.sector_angle) : null;
  svg.select<SVGGElement>('g.target').selectAll<SVGPathElement, { x: number; y: number }>('path')
    .data(target ? [target] : [])
    .join('path')
    .attr('class', 'target-sector')
    .attr('d', d3.symbol(d3.symbolDiamond, 260)()!)
    .attr('transform', (t) => `translate(${t.x.toFixed(1)},${t.y.toFixed(1)})`)
    .attr('fill', FLASH_COLOURS.victim).attr('stroke', '#fff').attr('stroke-width', 2);

  const queued = snap.queue.map((q, i) => ({ i, ...platterPoint(snap, q.cylinder, q.sector_angle) }));
  const dots = svg.select<SVGGElement>('g.queue').selectAll<SVGGElement, (typeof queued)[number]>('g.req')
    .data(queued, (d) => String(d.i))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'req');
      g.append('circle').attr('r', 11).attr('fill', '#0072B2').attr('stroke', '#fff').attr('stroke-width', 1.5);
      g.append('text').attr('y', 5).attr('text-anchor', 'middle').attr('font-size', 14).attr('font-weight', 700).attr('fill', '#fff');
      return g;
    });
  dots.attr('transform', (d) => `translate(${d.x.toFixed(1)},${d.y.toFixed(1)})`);
  dots.select('text').text((d) => (d.i < 9 ? String(d.i + 1) : ''));

  // The arm and head.
  const arm = svg.select('g.arm');
  arm.select('line.arm-line').attr('x1', PIVOT.x).attr('y1', PIVOT.y).attr('x2', head.x.toFixed(1)).attr('y2', head.y.toFixed(1));
  const headDeg = (Math.atan2(head.y - PIVOT.y, head.x - PIVOT.x) * 180) / Math.PI;
  arm.select('rect.head').attr('transform', `translate(${head.x.toFixed(1)},${head.y.toFixed(1)}) rotate(${headDeg.toFixed(1)})`);
  arm.select('text.head-label').attr('x', (head.x - 12).toFixed(1)).attr('y', (head.y - 12).toFixed(1))
    .text(`head · cyl ${Math.round(snap.head).toLocaleString('en-US')}`);

  const p = svg.select('g.panel');
  p.select('rect.badge').attr('fill', DISK_STATE_COLOURS[snap.state] ?? '#5b6370');
  p.select('text.badge-state').text(`● ${STATE_TEXT[snap.state] ?? snap.state}`);
  p.select('text.badge-watts').text(`drawing ${snap.watts.toFixed(2)} W`);
  p.select('text.phase').text(cur ? `Now: ${PHASE_TEXT[cur.phase] ?? cur.phase}` : stopped ? 'Now: platter stopped' : 'Now: no request in service');
  p.select('text.phase-detail').text(cur
    ? `cylinder ${Math.round(cur.cylinder).toLocaleString('en-US')} · ends in ${fmtNs(Math.max(0, cur.phase_end_ns - snap.time_ns))}`
    : stopped ? 'the next request waits for spin-up' : '');
  p.select('text.queue-count').text(`${snap.queue.length}${snap.queue.length >= 64 ? '+' : ''} request${snap.queue.length === 1 ? '' : 's'} waiting`);

  svg.attr('data-state', snap.state).attr('data-head', Math.round(snap.head)).attr('data-queue', snap.queue.length)
    .attr('data-phase', cur ? cur.phase : 'none');
}

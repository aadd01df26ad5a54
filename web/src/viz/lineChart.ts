/**
 * renderLineChart: one chart of an experiment, drawn with D3 into an <svg>.
 *
 * Data in, SVG out: the function clears the element and draws the title, titled axes (with
 * units), gridlines, a legend, and each series in its style — measured: solid line with dots;
 * theory: band; paper: hollow diamonds; a closed outline: a translucent filled region, under
 * the lines, named inside at its centroid — then wires a tooltip that follows the pointer
 * and the keyboard (the chart is focusable: ←/→ move along a series, ↑/↓ change series, Esc
 * hides). Theory curves are a soft band with a dashed centre line, so they stay visible where
 * the measured curve lies on them. All styling is inline, so the exported SVG looks the same
 * outside the page. No React
 * state; deterministic for the same input (snapshot-tested).
 */
import * as d3 from 'd3';
import type { ChartSpec } from './chartSpec';
import { fmt, fmtTicks } from './format';
import { PALETTE } from './palette';

export interface LineChartOptions {
  width: number;
  height: number;
  /** Override the spec's choice of axis scales. */
  xLog?: boolean;
  yLog?: boolean;
  /** Told what the focused point is (for a live region), or null when focus leaves. */
  onFocus?: (text: string | null) => void;
  /** Text scale (default 1: 11 px tick labels); the margins and legend rows grow with it. */
  text?: number;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const KIND_LABEL = { measured: 'measured', theory: 'theory', paper: 'paper' } as const;

interface LegendItem {
  name: string;
  kind: 'measured' | 'theory' | 'paper';
  colour: string;
  region: boolean;
}

/** A region's fill and outline: light enough that the lines and labels above it read. */
const REGION = { fillOpacity: 0.3, strokeWidth: 1, strokeOpacity: 0.6 } as const;

/** The area-weighted centroid of a polygon (the vertices' mean if it has no area). */
export function centroid(pts: Array<[number, number]>): [number, number] {
  let a = 0;
  let cx = 0;
  let cy = 0;
  pts.forEach(([x0, y0], i) => {
    const [x1, y1] = pts[(i + 1) % pts.length]!;
    const c = x0 * y1 - x1 * y0;
    a += c;
    cx += (x0 + x1) * c;
    cy += (y0 + y1) * c;
  });
  if (Math.abs(a) < 1e-9) return [d3.mean(pts, (p) => p[0]) ?? 0, d3.mean(pts, (p) => p[1]) ?? 0];
  return [cx / (3 * a), cy / (3 * a)];
}

/** Lays out legend items in rows that fit `width`, estimating text at 6.4 px per character (× the text scale). */
function legendRows(items: LegendItem[], width: number, k = 1): Array<Array<LegendItem & { x: number }>> {
  const rows: Array<Array<LegendItem & { x: number }>> = [[]];
  let x = 0;
  for (const it of items) {
    const w = 30 + it.name.length * (k === 1 ? 6.4 : 7 * k) + 18;
    if (x > 0 && x + w > width) {
      rows.push([]);
      x = 0;
    }
    rows[rows.length - 1]!.push({ ...it, x });
    x += w;
  }
  return rows;
}

/** Words of `text` in lines of at most `chars` characters (a word longer than that gets a line of its own). */
export function wrapWords(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + w.length > chars) {
      lines.push(line);
      line = w;
    } else {
      line = line ? `${line} ${w}` : w;
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}

/** `text` cut to `chars` characters with an ellipsis. */
function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}

/**
 * A log axis counts in powers of two (1, 2, 4 … KB) when `binary` (an x axis of sizes or
 * counts that double), else in decimal 1-2-5 steps (a measured quantity's axis).
 */
function makeScale(log: boolean, lo: number, hi: number, range: [number, number], zeroBased: boolean, binary = false) {
  if (log) {
    const base = binary && hi / lo <= 1024 ? 2 : 10;
    return d3.scaleLog().base(base).domain([lo / 1.15, hi * 1.15]).range(range);
  }
  const min = zeroBased && lo >= 0 ? 0 : lo;
  const pad = hi === min ? Math.abs(hi) * 0.1 || 1 : 0;
  return d3.scaleLinear().domain([min - pad, hi + pad]).nice().range(range);
}

export function renderLineChart(svgEl: SVGSVGElement, spec: ChartSpec, opts: LineChartOptions): void {
  const { width, height } = opts;
  const k = opts.text ?? 1;
  const xLog = opts.xLog ?? spec.xLog;
  const yLog = opts.yLog ?? spec.yLog;
  const svg = d3.select(svgEl);
  svg.selectAll('*').remove();
  svg
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('width', width)
    .attr('height', height)
    .attr('font-family', FONT)
    .attr('role', 'img')
    .attr('tabindex', 0)
    .attr('aria-label', `${spec.title}. ${spec.series.map((s) => `${s.name} (${KIND_LABEL[s.kind]})`).join('; ')}. Use the arrow keys to read the points.`);
  svg.append('title').text(spec.title);
  svg.append('rect').attr('width', width).attr('height', height).attr('fill', '#ffffff');

  // A narrow chart (a phone) starts its title and legend at the left edge, wraps the title and
  // cuts legend names that would not fit.
  const narrow = width < 480;
  const textLeft = narrow ? 8 : 70 * k;
  const titleLines = narrow ? wrapWords(spec.title, Math.floor((width - 16) / (8.2 * k))) : [spec.title];
  const legendChars = Math.floor((width - 16 - 48) / (6.4 * k));
  const items: LegendItem[] = spec.series.map((s) => ({
    name: narrow ? clip(s.name, legendChars) : s.name, kind: s.kind, colour: PALETTE[s.colour % PALETTE.length]!, region: s.region,
  }));
  const rows = legendRows(items, narrow ? width - 16 : width - 80, k);
  const rowH = 18 * k;
  const titleExtra = (titleLines.length - 1) * 18 * k;
  const margin = { top: 34 * k + titleExtra + rows.length * rowH + 8, right: 20, bottom: (spec.categories ? 64 : 50) * k, left: 70 * k };
  const iw = Math.max(40, width - margin.left - margin.right);
  const ih = Math.max(40, height - margin.top - margin.bottom);

  const title = svg.append('text').attr('x', textLeft).attr('y', 20 * k).attr('font-size', 15 * k).attr('font-weight', 600)
    .attr('fill', '#1a1a1a');
  if (titleLines.length === 1) title.text(spec.title);
  else title.selectAll('tspan').data(titleLines).join('tspan').attr('x', textLeft).attr('dy', (_, i) => (i === 0 ? 0 : 18 * k)).text((d) => d);

  // Legend.
  const legend = svg.append('g').attr('transform', `translate(${textLeft},${32 * k + titleExtra})`);
  rows.forEach((row, r) => {
    for (const it of row) {
      const g = legend.append('g').attr('transform', `translate(${it.x},${r * rowH})`);
      if (it.region) {
        g.append('rect').attr('x', 2).attr('y', -6).attr('width', 20).attr('height', 12).attr('fill', it.colour)
          .attr('fill-opacity', REGION.fillOpacity).attr('stroke', it.colour).attr('stroke-opacity', REGION.strokeOpacity);
      } else if (it.kind === 'paper') {
        g.append('path').attr('d', d3.symbol(d3.symbolDiamond, 50)()).attr('transform', 'translate(12,0)')
          .attr('fill', '#ffffff').attr('stroke', it.colour).attr('stroke-width', 1.8);
      } else {
        if (it.kind === 'theory') {
          g.append('line').attr('x1', 2).attr('x2', 22).attr('y1', 0).attr('y2', 0).attr('stroke', it.colour)
            .attr('stroke-width', 9).attr('stroke-opacity', 0.22).attr('stroke-linecap', 'round');
        }
        g.append('line').attr('x1', 0).attr('x2', 24).attr('y1', 0).attr('y2', 0).attr('stroke', it.colour)
          .attr('stroke-width', it.kind === 'theory' ? 1.5 : 2).attr('stroke-dasharray', it.kind === 'theory' ? '6 4' : null);
        if (it.kind === 'measured') g.append('circle').attr('cx', 12).attr('cy', 0).attr('r', 3.5).attr('fill', it.colour);
      }
      g.append('text').attr('x', 30).attr('y', 4 * k).attr('font-size', 12 * k).attr('fill', '#333').text(it.name);
    }
  });

  const pts = spec.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const usable = (log: boolean, v: number[]) => (log ? v.filter((a) => a > 0) : v);
  const xs = usable(xLog, pts.map((p) => p[0]));
  const ys = usable(yLog, pts.map((p) => p[1]));
  const cats = spec.categories;
  const x = cats
    ? d3.scaleLinear().domain([-0.5, cats.length - 0.5]).range([0, iw])
    : makeScale(xLog && xs.length > 0, d3.min(xs) ?? 0, d3.max(xs) ?? 1, [0, iw], false, true);
  const y = makeScale(yLog && ys.length > 0, d3.min(ys) ?? 0, d3.max(ys) ?? 1, [ih, 0], true);
  const plot = svg.append('g').attr('transform', `translate(${margin.left},${margin.top})`);

  // Gridlines and axes.
  const xTicks = cats ? cats.map((_, i) => i) : xLog ? x.ticks(iw < 400 ? 4 : 8) : x.ticks(Math.max(2, Math.round(iw / (90 * k))));
  const yTicks = yLog ? y.ticks(6) : y.ticks(Math.max(2, Math.round(ih / (50 * k))));
  plot.append('g').selectAll('line').data(yTicks).join('line')
    .attr('x1', 0).attr('x2', iw).attr('y1', (d) => y(d)).attr('y2', (d) => y(d)).attr('stroke', '#e6e6e6');
  const labelled = (ticks: number[], scale: typeof x) => {
    if (!('base' in scale)) return ticks;
    const base = (scale as d3.ScaleLogarithmic<number, number>).base();
    const pow = (t: number) => Math.abs(Math.log(t) / Math.log(base) % 1) < 1e-9;
    const keep = base === 2 ? ticks.filter(pow) : ticks.filter((t) => /^[125]e/.test(t.toExponential()));
    return keep.length >= 2 ? keep : ticks;
  };
  const axisOf = <A extends d3.Axis<d3.NumberValue>>(axis: A, ticks: number[]) => {
    const labels = fmtTicks(ticks);
    return axis.tickValues(ticks).tickFormat((_, i) => labels[i]!);
  };
  const xAxis = cats ? d3.axisBottom(x).tickValues(xTicks).tickFormat((_, i) => cats[i]!) : axisOf(d3.axisBottom(x), labelled(xTicks, x));
  const yAxis = axisOf(d3.axisLeft(y), labelled(yTicks, y));
  const gx = plot.append('g').attr('transform', `translate(0,${ih})`).call(xAxis);
  const gy = plot.append('g').call(yAxis);
  for (const g of [gx, gy]) {
    g.attr('font-size', 11 * k).attr('font-family', FONT);
    g.selectAll('text').attr('fill', '#333');
    g.selectAll('path, line').attr('stroke', '#888');
  }
  // Category names wrap to the width of their slot.
  if (cats) {
    const chars = Math.max(6, Math.floor(iw / cats.length / (6.6 * k)));
    gx.selectAll<SVGTextElement, number>('.tick text').each(function (_, i) {
      const words = wrapWords(cats[i]!, chars);
      if (words.length < 2) return;
      const t = d3.select(this).text(null);
      words.forEach((w, j) => t.append('tspan').attr('x', 0).attr('dy', j === 0 ? '0.71em' : '1.1em').text(w));
    });
  }
  plot.append('text').attr('x', iw / 2).attr('y', ih + (cats ? 54 : 40) * k).attr('text-anchor', 'middle').attr('font-size', 13 * k)
    .attr('fill', '#1a1a1a').text(spec.xLabel + (xLog ? ' — log scale' : ''));
  plot.append('text').attr('transform', `translate(${-52 * k},${ih / 2}) rotate(-90)`).attr('text-anchor', 'middle')
    .attr('font-size', 13 * k).attr('fill', '#1a1a1a').text(spec.yLabel + (yLog ? ' — log scale' : ''));

  // Series.
  const ok = ([px, py]: [number, number]) =>
    Number.isFinite(px) && Number.isFinite(py) && (!xLog || px > 0) && (!yLog || py > 0);
  const line = d3.line<[number, number]>().defined(ok).x((p) => x(p[0])).y((p) => y(p[1])).digits(2);
  // A CDF's measured curve: a step at each point, rising from 0 at the first.
  const steps = d3.line<[number, number]>().defined(ok).x((p) => x(p[0])).y((p) => y(p[1])).digits(2).curve(d3.curveStepAfter);
  const measuredPath = (pts: Array<[number, number]>) =>
    spec.step && pts.length > 0 ? steps([[pts[0]![0], 0], ...pts]) : line(pts);
  // Regions first, then theory, so measured points sit on top of their curves.
  const rank = (i: number) => (spec.series[i]!.region ? -1 : { theory: 0, paper: 1, measured: 2 }[spec.series[i]!.kind]);
  const order = [...spec.series.keys()].sort((a, b) => rank(a) - rank(b));
  const regionLabels: Array<{ text: string; at: [number, number] }> = [];
  for (const i of order) {
    const s = spec.series[i]!;
    const colour = PALETTE[s.colour % PALETTE.length]!;
    const g = plot.append('g').attr('data-series', s.name).attr('data-kind', s.kind);
    if (s.region) {
      const px = s.points.filter(ok).map((p): [number, number] => [x(p[0]), y(p[1])]);
      g.attr('data-region', '').append('path').attr('d', px.length >= 3 ? `${line(s.points)}Z` : '').attr('fill', colour)
        .attr('fill-opacity', REGION.fillOpacity).attr('stroke', colour).attr('stroke-width', REGION.strokeWidth)
        .attr('stroke-opacity', REGION.strokeOpacity).attr('stroke-linejoin', 'round');
      if (px.length >= 3) regionLabels.push({ text: s.label, at: centroid(px) });
      continue;
    }
    if (s.kind === 'theory') {
      // A soft band with a dashed centre line: visible even where the measured curve lies on it.
      g.append('path').attr('d', line(s.points) ?? '').attr('fill', 'none').attr('stroke', colour)
        .attr('stroke-width', 9).attr('stroke-opacity', 0.22).attr('stroke-linecap', 'round').attr('stroke-linejoin', 'round');
      g.append('path').attr('d', line(s.points) ?? '').attr('fill', 'none').attr('stroke', colour)
        .attr('stroke-width', 1.5).attr('stroke-dasharray', '6 4');
    } else if (s.kind === 'measured' && !cats) {
      g.append('path').attr('d', measuredPath(s.points) ?? '').attr('fill', 'none').attr('stroke', colour).attr('stroke-width', 1.75);
    }
    if (s.kind === 'measured' && s.points.length <= 120) {
      g.selectAll('circle').data(s.points.filter(ok)).join('circle').attr('cx', (p) => x(p[0]).toFixed(2))
        .attr('cy', (p) => y(p[1]).toFixed(2)).attr('r', cats ? 5.5 : 3.5).attr('fill', colour);
    }
    if (s.kind === 'paper') {
      g.selectAll('path').data(s.points.filter(ok)).join('path').attr('d', d3.symbol(d3.symbolDiamond, 90)())
        .attr('transform', (p) => `translate(${x(p[0]).toFixed(2)},${y(p[1]).toFixed(2)})`).attr('fill', '#ffffff')
        .attr('stroke', colour).attr('stroke-width', 2);
    }
  }

  // Region names, above every region and line, with a halo so they read on any fill.
  if (regionLabels.length > 0) plot.append('g').attr('pointer-events', 'none').selectAll('text').data(regionLabels).join('text')
    .attr('x', (d) => d.at[0].toFixed(2)).attr('y', (d) => d.at[1].toFixed(2)).attr('dy', '0.35em')
    .attr('text-anchor', 'middle').attr('font-size', 13 * k).attr('font-weight', 600).attr('fill', '#1a1a1a')
    .attr('stroke', '#ffffff').attr('stroke-width', 3).attr('stroke-opacity', 0.8).attr('paint-order', 'stroke')
    .attr('stroke-linejoin', 'round').text((d) => d.text);

  // Tooltip: pointer and keyboard share one focus marker.
  const focus = plot.append('g').attr('pointer-events', 'none').attr('display', 'none');
  focus.append('circle').attr('r', 6).attr('fill', 'none').attr('stroke', '#1a1a1a').attr('stroke-width', 2);
  const box = focus.append('g');
  const boxRect = box.append('rect').attr('rx', 4).attr('fill', '#1a1a1a').attr('opacity', 0.9);
  const boxText = box.append('text').attr('font-size', 12 * k).attr('fill', '#ffffff');
  const seriesWithPoints = spec.series.map((s, i) => ({ s, i, pts: s.points.filter(ok) })).filter((e) => e.pts.length > 0);
  let cur: { si: number; pi: number } | null = null;

  const show = (si: number, pi: number) => {
    const entry = seriesWithPoints[si];
    const p = entry?.pts[pi];
    if (!entry || !p) return;
    cur = { si, pi };
    const cx = x(p[0]);
    const cy = y(p[1]);
    focus.attr('display', null).attr('transform', `translate(${cx},${cy})`);
    const lines = [entry.s.name, `${spec.xLabel}: ${spec.categories?.[p[0]] ?? fmt(p[0], 4)}`, `${spec.yLabel}: ${fmt(p[1], 4)}`];
    boxText.selectAll('tspan').data(lines).join('tspan').attr('x', 8).attr('dy', (_, j) => (j === 0 ? 16 : 15) * k).text((d) => d);
    const bw = Math.max(...lines.map((l) => l.length)) * 6.6 * k + 16;
    const bh = lines.length * 15 * k + 10;
    boxRect.attr('width', bw).attr('height', bh);
    const bx = cx + 12 + bw > iw ? -bw - 12 : 12;
    const by = cy - bh - 8 < -margin.top + 4 ? 8 : -bh - 8;
    box.attr('transform', `translate(${bx},${by})`);
    opts.onFocus?.(lines.join(', '));
  };
  const hide = () => {
    cur = null;
    focus.attr('display', 'none');
    opts.onFocus?.(null);
  };

  plot.append('rect').attr('width', iw).attr('height', ih).attr('fill', 'transparent')
    .on('pointermove', (ev: PointerEvent) => {
      const [mx, my] = d3.pointer(ev);
      let best: { si: number; pi: number; d: number } | null = null;
      seriesWithPoints.forEach((e, si) => e.pts.forEach((p, pi) => {
        const d = (x(p[0]) - mx) ** 2 + (y(p[1]) - my) ** 2;
        if (!best || d < best.d) best = { si, pi, d };
      }));
      if (best && (best as { d: number }).d < 60 ** 2) show((best as { si: number }).si, (best as { pi: number }).pi);
      else hide();
    })
    .on('pointerleave', hide);
  focus.raise();

  svg.on('keydown', (ev: KeyboardEvent) => {
    if (seriesWithPoints.length === 0) return;
    const c = cur ?? { si: Math.max(0, seriesWithPoints.findIndex((e) => e.s.kind === 'measured')), pi: -1 };
    const n = seriesWithPoints[c.si]!.pts.length;
    if (ev.key === 'ArrowRight') show(c.si, Math.min(n - 1, c.pi + 1));
    else if (ev.key === 'ArrowLeft') show(c.si, Math.max(0, c.pi - 1));
    else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      const si = (c.si + (ev.key === 'ArrowDown' ? 1 : seriesWithPoints.length - 1)) % seriesWithPoints.length;
      show(si, Math.min(Math.max(0, c.pi), seriesWithPoints[si]!.pts.length - 1));
    } else if (ev.key === 'Escape') hide();
    else return;
    ev.preventDefault();
  });
  svg.on('blur', hide);
}

/** The chart as a standalone SVG document (for "export SVG"). */
export function serializeSvg(svgEl: SVGSVGElement): string {
  const clone = svgEl.cloneNode(true) as SVGSVGElement;
  clone.removeAttribute('tabindex');
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
}

/**
 * From an experiment result to the charts that show it (pure data, no D3): series sharing an
 * x and a y label go on one chart, in the order the experiment wrote them; each chart decides
 * whether its axes read better on a log scale. Colours follow the configuration a series shows
 * (its label), so one configuration has one colour in every chart of a result; a closed outline
 * is marked as a region, to be drawn filled. An x label that lists its categories ("system (0
 * device alone, 1 FAWN-KV, 2 vector FAWN-KV)", or "run: 0 Atom stock, 1 Atom tuned") makes a
 * categorical chart: one named tick per category, points not joined across categories.
 */
import type { ExperimentResult, SeriesKind } from '../model/types';

export interface ChartSeries {
  name: string;
  kind: SeriesKind;
  points: Array<[number, number]>;
  /**
   * Index into the palette: series of the same label share it, in every chart of the result;
   * labels that share a chart have different colours.
   */
  colour: number;
  /**
   * The configuration the series shows: its name without its source and without the words all
   * the quantities of its chart share ("FAWN+SSD cluster TCO", "FAWN+Disk cluster TCO" ->
   * "FAWN+SSD", "FAWN+Disk"). A region is labelled with it.
   */
  label: string;
  /** A closed outline (its first point is its last), measured or theory: drawn as a filled region. */
  region: boolean;
}

export interface ChartSpec {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xLog: boolean;
  yLog: boolean;
  /**
   * Draw the curves as steps (a CDF: the fraction ≤ x holds from one measured point to the
   * next, and rises from 0 at the first), not as straight lines between points.
   */
  step?: boolean;
  /**
   * A categorical x: the names of x = 0, 1, … (from the x label); xLabel is then the axis's
   * name alone ("system"). Points are drawn unjoined: different categories are not a curve.
   */
  categories?: string[];
  series: ChartSeries[];
}

/**
 * "system (0 device, 1 FAWN-KV)" or "run: 0 Atom stock, 1 Atom tuned" -> the axis name and its
 * categories in order; null unless the label numbers every category from 0 without a gap.
 */
export function categoriesOf(xLabel: string): { name: string; categories: string[] } | null {
  const m = /^(.*?)(?:\s*\(|:\s*)(0 [^)]*?)\)?$/.exec(xLabel.trim());
  if (!m || !m[1]) return null;
  const parts = m[2]!.split(/,\s*/);
  const categories: string[] = [];
  for (const [i, part] of parts.entries()) {
    const c = /^(\d+) (.+)$/.exec(part);
    if (!c || Number(c[1]) !== i) return null;
    categories.push(c[2]!.trim());
  }
  return categories.length >= 2 ? { name: m[1].trim(), categories } : null;
}

/**
 * "mean response (simulated)" -> "mean response": the quantity, without its source. Series are
 * named "<quantity> (<source>)"; the source may hold parentheses of its own.
 */
export function quantityOf(name: string): string {
  const t = name.trim();
  if (!t.endsWith(')')) return t;
  let depth = 0;
  for (let i = t.length - 1; i >= 0; i--) {
    if (t[i] === ')') depth++;
    else if (t[i] === '(' && --depth === 0) return i > 0 && t[i - 1] === ' ' ? t.slice(0, i).trim() : t;
  }
  return t;
}

function stripUnit(label: string): string {
  return label.replace(/\s*\([^)]*\)\s*$/, '');
}

function geometric(xs: number[]): boolean {
  const v = [...new Set(xs)].sort((a, b) => a - b);
  if (v.length < 3 || v[0]! <= 0) return false;
  const ratios = v.slice(1).map((x, i) => x / v[i]!).sort((a, b) => a - b);
  return v[v.length - 1]! / v[0]! >= 16 && ratios[Math.floor(ratios.length / 2)]! >= 1.9;
}

/** A CDF's y axis: the projects' series label it "fraction of … ≤ x". */
function isCdf(yLabel: string): boolean {
  return /^fraction of .*≤ x$/.test(yLabel);
}

function wideRange(ys: number[]): boolean {
  const pos = ys.filter((y) => y > 0);
  return pos.length === ys.length && pos.length > 2 && Math.max(...pos) / Math.min(...pos) >= 50;
}

/** A closed outline: at least three vertices, and the first point repeated at the end. */
export function isClosed(points: Array<[number, number]>): boolean {
  const a = points[0];
  const b = points[points.length - 1];
  return points.length >= 4 && a !== undefined && b !== undefined && a[0] === b[0] && a[1] === b[1];
}

/**
 * Each quantity of one chart without the leading and trailing words they all share; the
 * quantities themselves when fewer than two, or when that would leave one empty.
 */
function labelsOf(quantities: string[]): Map<string, string> {
  const words = quantities.map((q) => q.split(' '));
  const shortest = Math.min(...words.map((w) => w.length));
  const sharedAt = (at: (w: string[]) => string | undefined) => words.every((w) => at(w) === at(words[0]!));
  let head = 0;
  while (head < shortest && sharedAt((w) => w[head])) head++;
  let tail = 0;
  while (head + tail < shortest && sharedAt((w) => w[w.length - 1 - tail])) tail++;
  const cut = words.map((w) => w.slice(head, w.length - tail).join(' '));
  const ok = quantities.length >= 2 && cut.every((c) => c !== '');
  return new Map(quantities.map((q, i) => [q, ok ? cut[i]! : q]));
}

/**
 * A palette index per label, in the order labels first appear in the result: each takes the
 * lowest index no label it shares a chart with has taken. So a label keeps its colour across
 * charts, and a chart whose labels appear nowhere else starts from the palette's first colour.
 */
function coloursOf(charts: ChartSpec[]): Map<string, number> {
  const colour = new Map<string, number>();
  for (const c of charts) {
    for (const s of c.series) {
      if (colour.has(s.label)) continue;
      const taken = new Set(charts.filter((o) => o.series.some((t) => t.label === s.label))
        .flatMap((o) => o.series.map((t) => colour.get(t.label))));
      let k = 0;
      while (taken.has(k)) k++;
      colour.set(s.label, k);
    }
  }
  return colour;
}

export function chartsFromResult(r: ExperimentResult): ChartSpec[] {
  const charts: ChartSpec[] = [];
  for (const s of r.series) {
    if (s.points.length === 0) continue;
    let chart = charts.find((c) => c.xLabel === s.x_label && c.yLabel === s.y_label);
    if (!chart) {
      chart = {
        id: `chart-${charts.length}`,
        title: `${stripUnit(s.y_label)} against ${stripUnit(s.x_label)}`,
        xLabel: s.x_label,
        yLabel: s.y_label,
        xLog: false,
        yLog: false,
        series: [],
      };
      charts.push(chart);
    }
    chart.series.push({ name: s.name, kind: s.kind, points: s.points, colour: 0, label: quantityOf(s.name), region: s.kind !== 'paper' && isClosed(s.points) });
  }
  for (const c of charts) {
    const labels = labelsOf([...new Set(c.series.map((s) => s.label))]);
    for (const s of c.series) s.label = labels.get(s.label)!;
  }
  const colours = coloursOf(charts);
  for (const c of charts) {
    for (const s of c.series) s.colour = colours.get(s.label)!;
    const measured = c.series.filter((s) => s.kind === 'measured').flatMap((s) => s.points);
    const all = c.series.flatMap((s) => s.points);
    const cat = categoriesOf(c.xLabel);
    if (cat && all.every((p) => Number.isInteger(p[0]) && p[0] >= 0 && p[0] < cat.categories.length)) {
      c.categories = cat.categories;
      c.xLabel = cat.name;
      c.title = `${stripUnit(c.yLabel)} by ${cat.name}`;
      c.yLog = wideRange(all.map((p) => p[1]));
    } else if (isCdf(c.yLabel)) {
      // A latency CDF (its y a fraction "≤ x"): the fraction stays linear and a latency that
      // spans a wide range reads on a log axis (SOSP'09 Fig 15 draws it so).
      c.xLog = wideRange(all.map((p) => p[0]));
      c.yLog = false;
      c.step = true;
    } else {
      c.xLog = geometric(measured.map((p) => p[0]));
      c.yLog = wideRange(all.map((p) => p[1]));
    }
  }
  return charts;
}

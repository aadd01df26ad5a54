/**
 * A thin React host for renderLineChart: a ref, one effect, and an SVG export button. The chart
 * draws at its figure's width (so its text keeps its size on a phone and on a projector) and,
 * in presentation mode, with text 1.5 times larger.
 */
import { memo, useEffect, useRef, useState } from 'react';
import type { ChartSpec } from '../viz/chartSpec';
import { renderLineChart, serializeSvg } from '../viz/lineChart';
import { download } from './download';
import { chartSize, usePresent } from './viewSize';

/** The width of an element's content box, kept current as it resizes (null before the first measure). */
function useWidth(ref: React.RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

function ChartViewImpl({ spec, fileStem }: { spec: ChartSpec; fileStem: string }) {
  const ref = useRef<SVGSVGElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const present = usePresent();
  const measured = useWidth(box);
  const [readout, setReadout] = useState<string | null>(null);
  const [yLog, setYLog] = useState(spec.yLog);
  useEffect(() => {
    const size = chartSize(measured || 640, present);
    if (ref.current) renderLineChart(ref.current, spec, { ...size, yLog, onFocus: setReadout });
  }, [spec, yLog, measured, present]);
  return (
    <figure className="chart" data-chart={spec.title}>
      <div ref={box} className="chart-box">
        <svg ref={ref} className="chart-svg" />
      </div>
      <figcaption>
        <span className="sr-only" aria-live="polite">{readout ?? ''}</span>
        <label className="inline">
          <input type="checkbox" checked={yLog} onChange={(e) => setYLog(e.target.checked)} /> log y
        </label>
        <button type="button" onClick={() => ref.current && download(`${fileStem}.svg`, serializeSvg(ref.current), 'image/svg+xml')}>
          Export SVG
        </button>
      </figcaption>
    </figure>
  );
}

export const ChartView = memo(ChartViewImpl);

/** A thin React host for renderLineChart: a ref, one effect, and an SVG export button. */
import { memo, useEffect, useRef, useState } from 'react';
import type { ChartSpec } from '../viz/chartSpec';
import { renderLineChart, serializeSvg } from '../viz/lineChart';
import { download } from './download';

function ChartViewImpl({ spec, fileStem }: { spec: ChartSpec; fileStem: string }) {
  const ref = useRef<SVGSVGElement>(null);
  const [readout, setReadout] = useState<string | null>(null);
  const [yLog, setYLog] = useState(spec.yLog);
  useEffect(() => {
    if (ref.current) renderLineChart(ref.current, spec, { width: 640, height: 380, yLog, onFocus: setReadout });
  }, [spec, yLog]);
  return (
    <figure className="chart" data-chart={spec.title}>
      <svg ref={ref} className="chart-svg" />
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

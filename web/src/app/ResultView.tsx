/** A finished run: its charts, metrics against anchors, notes, and exports. */
import { useMemo } from 'react';
import type { ExperimentInfo, ExperimentResult, RunRecord } from '../model/types';
import { chartsFromResult } from '../viz/chartSpec';
import { ChartView } from './ChartView';
import { download, exportStem } from './download';
import { MetricsTable } from './MetricsTable';

/** The line under a result's title: its seed and scale, and the scale's note if it has one. */
export function runLine(r: ExperimentResult): string {
  const scale = r.scale.factor === 1 ? 'full scale' : `scaled down ×${r.scale.factor}`;
  return `seed ${r.seed} · ${scale}${r.scale.note ? ` — ${r.scale.note}` : ''}`;
}

/** `info`: the experiment's schema, so export names carry the parameters that differ from it. */
export function ResultView({ record, info }: { record: RunRecord; info?: ExperimentInfo }) {
  const r = record.result;
  const charts = useMemo(() => chartsFromResult(r), [r]);
  const stem = exportStem(r, info);
  return (
    <section className="result" aria-label={`Result of ${r.id}`}>
      <div className="result-head">
        <h3>{r.title}</h3>
        <div className="exports">
          <button type="button" onClick={() => download(`${stem}.csv`, record.csv, 'text/csv')}>Export CSV</button>
          <button type="button" onClick={() => download(`${stem}.json`, record.json, 'application/json')}>Export JSON</button>
        </div>
      </div>
      <p className="muted small">{runLine(r)}</p>
      <div className="charts">
        {charts.map((c) => <ChartView key={c.id} spec={c} fileStem={`${stem}-${c.id}`} />)}
      </div>
      <div className="table-wrap"><MetricsTable result={r} /></div>
      {r.notes.length > 0 && (
        <ul className="notes">
          {r.notes.map((n) => <li key={n}>{n}</li>)}
        </ul>
      )}
    </section>
  );
}

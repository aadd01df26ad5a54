/** A finished run: its charts, metrics against anchors, notes, and exports. */
import { useMemo } from 'react';
import type { RunRecord } from '../model/types';
import { chartsFromResult } from '../viz/chartSpec';
import { ChartView } from './ChartView';
import { download } from './download';
import { MetricsTable } from './MetricsTable';

export function ResultView({ record }: { record: RunRecord }) {
  const r = record.result;
  const charts = useMemo(() => chartsFromResult(r), [r]);
  const stem = `${r.id}-seed${r.seed}`;
  return (
    <section className="result" aria-label={`Result of ${r.id}`}>
      <div className="result-head">
        <h3>{r.title}</h3>
        <div className="exports">
          <button type="button" onClick={() => download(`${stem}.csv`, record.csv, 'text/csv')}>Export CSV</button>
          <button type="button" onClick={() => download(`${stem}.json`, record.json, 'application/json')}>Export JSON</button>
        </div>
      </div>
      <p className="muted small">
        seed {r.seed} · {r.scale.factor === 1 ? 'full scale' : `scaled down ×${r.scale.factor}`} — {r.scale.note}
      </p>
      <div className="charts">
        {charts.map((c) => <ChartView key={c.id} spec={c} fileStem={`${stem}-${c.id}`} />)}
      </div>
      <MetricsTable result={r} />
      {r.notes.length > 0 && (
        <ul className="notes">
          {r.notes.map((n) => <li key={n}>{n}</li>)}
        </ul>
      )}
    </section>
  );
}

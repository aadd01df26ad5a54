// The line under a result's title, rendered as the page renders it.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ExperimentInfo, ExperimentResult } from '../model/types';
import { exportStem } from './download';
import { MetricsTable } from './MetricsTable';
import { ResultView, runLine } from './ResultView';

function result(factor: number, note: string): ExperimentResult {
  return { id: 'x', title: 'x', params: {}, seed: 7, scale: { factor, note }, metrics: {}, anchors: {}, tolerances: {}, anchor_notes: {}, series: [], notes: [] };
}

describe('ResultView', () => {
  it('shows the scale note only when there is one', () => {
    expect(runLine(result(1, ''))).toBe('seed 7 · full scale');
    expect(runLine(result(4, '1/4 of the keys'))).toBe('seed 7 · scaled down ×4 — 1/4 of the keys');
    const html = renderToStaticMarkup(<ResultView record={{ result: result(1, ''), json: '{}', csv: '' }} />);
    expect(html).toContain('<p class="muted small">seed 7 · full scale</p>');
    expect(html).not.toContain('—');
  });

  it('names exports after the parameters that differ from their defaults', () => {
    const info = { params: [{ name: 'dataset_mb', default: 256 }, { name: 'profile', default: 'sandisk-cf-4gb' }, { name: 'spare', default: 0.25 }] } as unknown as ExperimentInfo;
    const r = { id: 'fawnds.table2', seed: 3, params: { dataset_mb: 256, profile: 'sandisk-cf-4gb', spare: 0.25 } };
    expect(exportStem(r, info)).toBe('fawnds.table2-seed3');
    expect(exportStem({ ...r, params: { ...r.params, dataset_mb: 512, profile: 'intel x25/m' } }, info)).toBe('fawnds.table2-seed3-dataset_mb=512-profile=intel_x25_m');
    expect(exportStem({ ...r, params: { spare: 0.5 } })).toBe('fawnds.table2-seed3-spare=0.5');  // without the schema: every parameter
    const rec = { result: { ...result(1, ''), id: 'fawnds.table2', params: { dataset_mb: 512 } }, json: '{}', csv: '' };
    expect(renderToStaticMarkup(<ResultView record={rec} info={info} />)).toContain('Export CSV');
  });
});

describe('MetricsTable', () => {
  it('badges each anchor fitted or emergent with its source, and explains a missed one', () => {
    const r: ExperimentResult = {
      ...result(1, ''),
      metrics: { fit: 1770, emerge: 30000, free: 3 },
      anchors: { fit: 1850, emerge: 36000 },
      tolerances: { fit: { rel: 0.15 }, emerge: { rel: 0.15 } },
      anchor_notes: {
        fit: { basis: 'fitted', source: 'SOSP §4.2', why: 'handling fitted', miss: '' },
        emerge: { basis: 'emergent', source: 'Fig 11', why: 'the node model', miss: 'the node is flash-bound' },
      },
    };
    const html = renderToStaticMarkup(<MetricsTable result={r} />);
    expect(html).toContain('<span class="basis basis-fitted" title="fitted: a model constant was calibrated');
    expect(html).toContain('<span class="anchor-source">Fig 11</span>');
    expect(html).toContain('data-miss-for="emerge"');
    expect(html).toContain('the node is flash-bound');
    expect(html).not.toContain('data-miss-for="fit"');  // −4.3%: within ±15%
    expect(html).toContain('class="basis-legend"');
  });
});

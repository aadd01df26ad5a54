// The line under a result's title, rendered as the page renders it.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ExperimentResult } from '../model/types';
import { ResultView, runLine } from './ResultView';

function result(factor: number, note: string): ExperimentResult {
  return { id: 'x', title: 'x', params: {}, seed: 7, scale: { factor, note }, metrics: {}, anchors: {}, tolerances: {}, series: [], notes: [] };
}

describe('ResultView', () => {
  it('shows the scale note only when there is one', () => {
    expect(runLine(result(1, ''))).toBe('seed 7 · full scale');
    expect(runLine(result(4, '1/4 of the keys'))).toBe('seed 7 · scaled down ×4 — 1/4 of the keys');
    const html = renderToStaticMarkup(<ResultView record={{ result: result(1, ''), json: '{}', csv: '' }} />);
    expect(html).toContain('<p class="muted small">seed 7 · full scale</p>');
    expect(html).not.toContain('—');
  });
});

/** Saves text as a file through the browser's download mechanism; names exported runs. */
import type { ExperimentInfo, ExperimentResult } from '../model/types';

/**
 * A run's export file name without extension: the experiment, the seed and every parameter
 * that differs from its default ("fawnds.table2-seed1-dataset_mb=512"), so runs with other
 * parameters do not overwrite each other. Without the schema every parameter is named.
 */
export function exportStem(r: Pick<ExperimentResult, 'id' | 'seed' | 'params'>, info?: Pick<ExperimentInfo, 'params'>): string {
  const safe = (v: string) => v.replace(/[^A-Za-z0-9._+-]+/g, '_');
  const changed = Object.entries(r.params).filter(([k, v]) => {
    const spec = info?.params.find((p) => p.name === k);
    return !spec || String(spec.default) !== String(v);
  });
  return [`${r.id}-seed${r.seed}`, ...changed.map(([k, v]) => `${safe(k)}=${safe(String(v))}`)].join('-');
}

export function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Choose an experiment, set its parameters and seed (kept in the URL), run it in a worker
 * with progress and cancel, and show the result. Parameters are checked by the core as they
 * are typed; an invalid set shows the core's message and cannot run.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Core } from '../model/core';
import { ExperimentRunner } from '../model/runner';
import { paramPairs, type Scenario } from '../model/scenario';
import type { ExperimentInfo, RunRecord } from '../model/types';
import { ParamForm } from './ParamForm';
import { ResultView } from './ResultView';

type Status =
  | { kind: 'idle' }
  | { kind: 'running'; progress: number }
  | { kind: 'done'; record: RunRecord }
  | { kind: 'error'; message: string };

const MAX_SEED = 2n ** 53n - 1n;

export function seedError(seed: string): string | null {
  if (!/^\d{1,16}$/.test(seed.trim()) || BigInt(seed.trim()) > MAX_SEED) {
    return `seed '${seed}' must be an integer in [0, ${MAX_SEED}]`;
  }
  return null;
}

interface Props {
  core: Core;
  experiments: ExperimentInfo[];
  scenario: Scenario;
  onScenario: (s: Scenario, opts?: { push?: boolean }) => void;
  /** Run once on mount (a shared link). */
  autoRun: boolean;
}

export function ExperimentPanel({ core, experiments, scenario, onScenario, autoRun }: Props) {
  const runner = useRef<ExperimentRunner | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const info = experiments.find((e) => e.id === scenario.experiment);
  const check = useMemo(
    () =>
      info
        ? core.resolveParamStrings(info.id, paramPairs(scenario))
        : ({ ok: false, code: 'not_found', message: `unknown experiment '${scenario.experiment}'; known: ${experiments.map((e) => e.id).join(', ')}` } as const),
    [core, info, scenario, experiments],
  );
  const problem = !check.ok ? check.message : seedError(scenario.seed);
  const invalidParam = !check.ok ? (/parameter '([A-Za-z0-9_]+)'/.exec(check.message)?.[1] ?? null) : null;

  // The runner is made on first use, not in a mount effect: a click can reach run() after the
  // panel's first commit but before React has run its passive effects (seen under load: the
  // click was dropped without a word).
  useEffect(() => () => {
    runner.current?.dispose();
    runner.current = null;
  }, []);

  const runButton = useRef<HTMLButtonElement | null>(null);
  const cancelButton = useRef<HTMLButtonElement | null>(null);
  const focusCancel = useRef(false);
  const run = () => {
    if (!check.ok || problem) return;
    runner.current ??= new ExperimentRunner();
    // Run is disabled while a run goes: keyboard focus moves on to Cancel, not to the page.
    focusCancel.current = document.activeElement === runButton.current;
    onScenario(scenario, { push: true });
    setStatus({ kind: 'running', progress: 0 });
    const h = runner.current.run(scenario.experiment, check.params, scenario.seed.trim(), (f) =>
      setStatus((s) => (s.kind === 'running' ? { kind: 'running', progress: f } : s)),
    );
    h.promise.then((r) => {
      if ('result' in r) setStatus({ kind: 'done', record: r });
      else if (r.code === 'cancelled') setStatus({ kind: 'idle' });
      else setStatus({ kind: 'error', message: r.message });
    });
  };

  const autoRan = useRef(false);
  useEffect(() => {
    if (autoRun && !autoRan.current) {
      autoRan.current = true;
      run();
    }
  });

  const running = status.kind === 'running';
  useEffect(() => {
    if (running && focusCancel.current) cancelButton.current?.focus();
    if (!running && focusCancel.current) {
      focusCancel.current = false;
      if (document.activeElement === document.body) runButton.current?.focus();
    }
  }, [running]);
  const setParam = (name: string, text: string) => onScenario({ ...scenario, params: { ...scenario.params, [name]: text } });

  return (
    <section className="panel experiment" aria-labelledby="exp-heading">
      <h2 id="exp-heading">Experiments</h2>
      <div className="exp-choose">
        <label htmlFor="experiment">Experiment</label>
        <select
          id="experiment"
          value={info ? info.id : ''}
          disabled={running}
          onChange={(e) => onScenario({ experiment: e.target.value, params: {}, seed: scenario.seed })}
        >
          {!info && <option value="">(unknown: {scenario.experiment})</option>}
          {experiments.map((e) => <option key={e.id} value={e.id}>{e.id} — {e.title}</option>)}
        </select>
      </div>
      {info && (
        <>
          <p className="summary">{info.summary}</p>
          <p className="muted small">Reproduces: {info.reference}</p>
          <ParamForm info={info} values={scenario.params} onChange={setParam} disabled={running} invalid={invalidParam} />
        </>
      )}
      <div className="run-row">
        <label htmlFor="seed">seed</label>
        <input id="seed" type="text" inputMode="numeric" value={scenario.seed} disabled={running}
          onChange={(e) => onScenario({ ...scenario, seed: e.target.value })} />
        {/* Run stays in place (disabled) while Cancel appears beside it: a double click on Run
            must not land on Cancel and stop the run it just started. */}
        <button type="button" className="primary" ref={runButton} onClick={run} disabled={running || Boolean(problem)}>Run</button>
        {running && <button type="button" ref={cancelButton} onClick={() => runner.current?.cancel()}>Cancel</button>}
        <button type="button" onClick={() => onScenario({ experiment: scenario.experiment, params: {}, seed: '1' })} disabled={running}>
          Defaults
        </button>
        <button type="button" onClick={() => void navigator.clipboard?.writeText(window.location.href)}>Copy link</button>
      </div>
      {problem && <p className="error" role="alert">{problem}</p>}
      {running && (
        <div className="progress" role="status">
          <progress max={1} value={status.progress} aria-label="run progress" /> {Math.round(status.progress * 100)}% — simulating in a
          worker; the page stays responsive.
        </div>
      )}
      {status.kind === 'error' && <p className="error" role="alert">The run failed: {status.message}</p>}
      {status.kind === 'done' && <ResultView record={status.record} info={experiments.find((e) => e.id === status.record.result.id)} />}
    </section>
  );
}

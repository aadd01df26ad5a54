/**
 * The SRCMap view's controls, each generated from the `srcmap` session's schema (range, unit, help,
 * choices): the setup (policy, replica space, interval, rate scale; history, re-trigger and the
 * seed folded under "more"; a change starts a new day), the level (live: the session decides
 * again at once), run to an hour, locate a block (the `locate` op) and replay one's own MSR
 * Cambridge trace (a file's text to the `load_trace` op). A field the schema lacks is left out
 * rather than invented.
 */
import { useEffect, useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Field, numberFrom } from '../../app/LiveControls';
import { OpArgField, SessionField } from '../../app/SessionField';
import type { SessionInfo } from '../../model/session/schema';
import { traceFileProblem } from './srcmapSession';
import type { SrcmapConfig } from './srcmapTypes';

const hasParam = (info: SessionInfo, name: string) => info.params.some((p) => p.name === name);
const hasArg = (info: SessionInfo, op: string, arg: string) => info.ops.some((o) => o.name === op && o.args.some((a) => a.name === arg));

/** The policies' display names when the core's schema has no labels for them. */
export function policyNames(info: SessionInfo): Record<string, string> | undefined {
  const spec = info.params.find((p) => p.name === 'policy') as (SessionInfo['params'][number] & { labels?: unknown }) | undefined;
  if (!spec?.choices || spec.labels) return undefined;
  const mine: Record<string, string> = { srcmap: 'SRCMap', 'baseline-on': 'Baseline-On', 'caching-1': 'Caching-1', 'caching-2': 'Caching-2', replication: 'Replication' };
  return Object.fromEntries(spec.choices.map((c) => [c, mine[c] ?? c]));
}

interface Props {
  info: SessionInfo;
  config: Required<SrcmapConfig>;
  onConfig: (patch: Partial<Required<SrcmapConfig>>) => void;
}

type Row = [keyof SrcmapConfig & string, string, string, number?];
const MAIN: Row[] = [
  ['policy', 'srcmap-policy', 'policy'],
  ['replica_pct', 'srcmap-replica', 'replica space (%)', 2.5],
  ['interval_h', 'srcmap-interval', 'interval (h)', 0.5],
  ['rate_scale', 'srcmap-rate', 'rate scale (× the traces’)', 0.05],
];
const MORE: Row[] = [
  ['history_days', 'srcmap-history', 'days of history'],
  ['retrigger', 'srcmap-retrigger', 'mid-interval re-trigger'],
];

function fieldsOf({ info, config, onConfig }: Props, rows: Row[]) {
  return rows.filter(([name]) => hasParam(info, name) && info.params.find((p) => p.name === name)?.live !== true).map(([name, id, label, step]) => (
    <SessionField key={name} session={info} config={config} onConfig={onConfig} name={name} id={id} label={label} step={step}
      names={name === 'policy' ? policyNames(info) : undefined} />
  ));
}

/** The setup: a change starts a new day (`children`, the level's group, shares its row). */
export function SrcmapSetup(props: Props & { seed: number; onSeed: (seed: number) => void; children?: ReactNode }) {
  const [seedText, setSeedText] = useState(String(props.seed));
  // A scenario brings its own seed.
  useEffect(() => setSeedText(String(props.seed)), [props.seed]);
  const apply = () => {
    const v = Math.round(numberFrom(seedText, props.seed));
    if (v >= 1 && v !== props.seed) props.onSeed(v);
    else setSeedText(String(props.seed));
  };
  return (
    <>
      <div className="srcmap-controls">
        <div className="live-config" role="group" aria-label="The setup (a change starts a new day)">{fieldsOf(props, MAIN)}</div>
        {props.children}
      </div>
      <details className="fawnds-setup srcmap-more">
        <summary>more: the history sampled, the re-trigger, the seed</summary>
        <div className="live-config" role="group" aria-label="More of the setup (a change starts a new day)">
          {fieldsOf(props, MORE)}
          <Field id="srcmap-seed" label="seed">
            <input id="srcmap-seed" type="number" min={1} step={1} value={seedText} title="The run's seed: the same seed replays the same day byte for byte. Enter or leave the field to apply."
              onChange={(e) => setSeedText(e.target.value)} onBlur={apply} onKeyDown={(e) => { if (e.key === 'Enter') apply(); }} />
          </Field>
        </div>
      </details>
    </>
  );
}

/** The level (live) and running ahead to an hour. */
export function SrcmapLevel({ info, config, onConfig, onRunTo, busy }: Props & { onRunTo: (hour: number) => void; busy: boolean }) {
  const [hour, setHour] = useState(12);
  return (
    <div className="live-config srcmap-level" role="group" aria-label="The level (changes the running day) and running ahead">
      {hasParam(info, 'level') && <SessionField session={info} config={config} onConfig={onConfig} name="level" id="srcmap-level" label="Level" />}
      {hasArg(info, 'run_to', 'hour') && (
        <form className="op-row" aria-label="Run to an hour" onSubmit={(e) => { e.preventDefault(); onRunTo(hour); }}>
          <OpArgField session={info} op="run_to" arg="hour" id="srcmap-run-to" label="run to hour" value={hour} step={0.5} onChange={(v) => setHour(Number(v))} />
          <button type="submit" disabled={busy} title="Run the day up to this hour at once">Run to</button>
        </form>
      )}
    </div>
  );
}

/** Locate a block: a volume and an offset. */
export function LocateForm({ info, volumes, onLocate, busy }: { info: SessionInfo; volumes: string[]; onLocate: (volume: number, offsetMb: number) => void; busy: boolean }) {
  const [volume, setVolume] = useState(0);
  const [offset, setOffset] = useState(100);
  if (!hasArg(info, 'locate', 'volume')) return null;
  const presets = volumes.map((name, i) => [i, `D${i} ${name}`] as const);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onLocate(volume, offset);
  };
  return (
    <form className="op-row srcmap-locate" aria-label="Locate a block" onSubmit={submit}>
      <OpArgField session={info} op="locate" arg="volume" id="srcmap-locate-volume" label="volume" value={volume} onChange={(v) => setVolume(Number(v))}
        presets={presets.length === 8 ? presets : undefined} />
      {hasArg(info, 'locate', 'offset_mb') && (
        <OpArgField session={info} op="locate" arg="offset_mb" id="srcmap-locate-offset" label="offset (MB)" value={offset} step={1} onChange={(v) => setOffset(Number(v))} />
      )}
      <button type="submit" className="primary" disabled={busy}>Locate</button>
    </form>
  );
}

/** Replay one's own trace: an MSR Cambridge CSV file, and the hours of it that are history. */
export function TraceUpload({ info, onTrace, busy }: { info: SessionInfo; onTrace: (file: File, historyH: number) => void; busy: boolean }) {
  // The schema's default (the core's: the first day of the trace is its history).
  const [historyH, setHistoryH] = useState(() => {
    const d = info.ops.find((o) => o.name === 'load_trace')?.args.find((a) => a.name === 'history_h')?.default;
    return typeof d === 'number' && d > 0 ? d : 24;
  });
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fileId = useId();
  if (!hasArg(info, 'load_trace', 'csv')) return null;
  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    setFile(f);
    setProblem(f ? traceFileProblem(f.name, f.size) : null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (file && !problem) onTrace(file, historyH);
  };
  return (
    <form className="op-row srcmap-trace" aria-label="Replay a trace" onSubmit={submit}>
      <Field id={fileId} label="MSR Cambridge trace (CSV)">
        <input id={fileId} type="file" accept=".csv,text/csv,text/plain" onChange={pick} data-testid="srcmap-trace-file"
          title="Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime per line (the SNIA IOTTA MSR Cambridge format)" />
      </Field>
      {hasArg(info, 'load_trace', 'history_h') && (
        <OpArgField session={info} op="load_trace" arg="history_h" id="srcmap-trace-history" label="history before the day (h)" value={historyH} step={1}
          onChange={(v) => setHistoryH(Number(v))} />
      )}
      <button type="submit" disabled={busy || !file || problem !== null}>Load the trace</button>
      {problem && <p className="error" role="alert" data-testid="srcmap-trace-problem">{problem}</p>}
    </form>
  );
}

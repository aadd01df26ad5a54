/**
 * The Stores view's controls, each generated from the `stores` session's schema (range, unit,
 * help, choices): which stores run (a checkbox each), the workload, the device, the host and
 * the preloaded records (a change starts new stores), the LSM's Bloom bits and the scale folded
 * under "more", the rate offered to every store (changes the running session), and the
 * operations: put / get a key in every store, fill N new records, run N operations. A field the
 * schema lacks is left out rather than invented.
 */
import { useState, type FormEvent } from 'react';
import { OpArgField, SessionField } from '../../app/SessionField';
import type { SessionInfo } from '../../model/session/schema';
import { STORE_PARAMS, type StoresConfig, type StoresOp } from './storesTypes';

/** Display names for the schema's choices (a choice not named here shows as itself; the core's labels win). */
const NAMES: Record<string, Record<string, string>> = {
  workload: {
    load: 'load: puts of new records', a: 'A: 50% reads, 50% updates', b: 'B: 95% reads, 5% updates', c: 'C: reads only',
    d: 'D: 95% reads of the latest, 5% inserts', e: 'E: short scans, 5% inserts', f: 'F: 50% reads, 50% read-modify-write',
  },
  host: { laptop: 'laptop (i7-3610QM, the CONA thesis)', fawn: 'FAWN node (Geode LX 500 MHz)', server: 'server' },
};

/** What each store's checkbox says. */
const STORE_LABELS: Record<string, string> = {
  cona: 'CONA', cona_1t: 'CONA, one thread', silt: 'SILT', lsm: 'LSM (LevelDB’s image)', fawnds: 'FAWN-DS', btree: 'B+tree',
};

/** The display names of `param`'s choices, every choice named (SessionField requires it); none when the core labels them. */
export function namesFor(info: SessionInfo, param: string): Record<string, string> | undefined {
  const spec = info.params.find((p) => p.name === param);
  if (!spec?.choices || (spec as { labels?: unknown }).labels) return undefined;
  const mine = NAMES[param] ?? {};
  return Object.fromEntries(spec.choices.map((c) => [c, mine[c] ?? c]));
}

const hasParam = (info: SessionInfo, name: string) => info.params.some((p) => p.name === name);
const hasArg = (info: SessionInfo, op: string, arg: string) => info.ops.some((o) => o.name === op && o.args.some((a) => a.name === arg));

interface Props {
  info: SessionInfo;
  config: Required<StoresConfig>;
  onConfig: (patch: Partial<Required<StoresConfig>>) => void;
}

/** The workload and the machine: each in the setup (a change starts new stores) or, when the schema makes it live, with the rate. */
const MAIN: Array<[keyof StoresConfig & string, string, string, number?]> = [
  ['workload', 'stores-workload', 'workload (YCSB)'],
  ['device', 'stores-device', 'flash device'],
  ['host', 'stores-host', 'host'],
  ['records', 'stores-records', 'preload records', 1000],
];
const MORE: Array<[keyof StoresConfig & string, string, string, number?]> = [
  ['bloom_bits', 'stores-bloom', 'LSM Bloom bits per key'],
  ['scale', 'stores-scale', 'machine scale'],
  ['max_writes', 'stores-max-writes', 'files sized for (puts)', 1000],
];

const isLive = (info: SessionInfo, name: string) => info.params.find((p) => p.name === name)?.live === true;

function fieldsOf(props: Props, rows: typeof MAIN) {
  const { info, config, onConfig } = props;
  return rows.filter(([name]) => hasParam(info, name)).map(([name, id, label, step]) => (
    <SessionField key={name} session={info} config={config} onConfig={onConfig} name={name} id={id} label={label} names={namesFor(info, name)} step={step} />
  ));
}

/** The stores and what they run on (a change starts new stores). */
export function StoresSetup(props: Props) {
  const { info } = props;
  const more = fieldsOf(props, MORE);
  return (
    <>
      <fieldset className="stores-pick" data-testid="stores-pick">
        <legend>Stores (each on its own machine, the same device model and the same operations)</legend>
        {STORE_PARAMS.filter((p) => hasParam(info, p.param)).map((p) => (
          <SessionField key={p.param} session={info} config={props.config} onConfig={props.onConfig} name={p.param} id={`stores-${p.param}`} label={STORE_LABELS[p.param] ?? p.param} />
        ))}
      </fieldset>
      <div className="live-config" role="group" aria-label="The machines (a change starts new stores)">
        {fieldsOf(props, MAIN.filter(([name]) => !isLive(info, name)))}
      </div>
      {more.length > 0 && (
        <details className="fawnds-setup stores-more">
          <summary>more: the LSM’s Bloom filter, the machines’ scale, the files’ size</summary>
          <div className="live-config" role="group" aria-label="More of the setup (a change starts new stores)">{more}</div>
        </details>
      )}
    </>
  );
}

/** What the clients send: the rate offered to every store, and the workload when it is live (both change the running stores). */
export function StoresLoadFields(props: Props) {
  const { info } = props;
  const live = fieldsOf(props, MAIN.filter(([name]) => isLive(info, name)));
  if (!hasParam(info, 'rate_ops_per_s') && live.length === 0) return null;
  return (
    <div className="live-config" role="group" aria-label="The load (changes the running stores)">
      {live}
      {hasParam(info, 'rate_ops_per_s') && (
        <SessionField session={info} config={props.config} onConfig={props.onConfig} name="rate_ops_per_s" id="stores-rate" label="rate to every store (ops/s)" step={100} />
      )}
    </div>
  );
}

interface OpProps {
  info: SessionInfo;
  onOp: (op: StoresOp) => void;
  busy: boolean;
}

/** Put / get a key in every store, fill N records, run N operations. */
export function StoresOps({ info, onOp, busy }: OpProps) {
  const [key, setKey] = useState('alice');
  const [value, setValue] = useState('hello');
  const [fill, setFill] = useState(2000);
  const [ops, setOps] = useState(1000);
  const submit = (e: FormEvent) => e.preventDefault();
  return (
    <div className="fawnds-controls stores-ops">
      <form className="op-row" onSubmit={submit} aria-label="Key operations (every store)">
        {hasArg(info, 'put', 'key') && <OpArgField session={info} op="put" arg="key" id="stores-key" label="key" value={key} onChange={(v) => setKey(String(v))} />}
        {hasArg(info, 'put', 'value') && <OpArgField session={info} op="put" arg="value" id="stores-value" label="value (put)" value={value} onChange={(v) => setValue(String(v))} />}
        <button type="submit" className="primary" disabled={busy} onClick={() => onOp({ op: 'put', key, value })}>Put</button>
        <button type="button" disabled={busy} onClick={() => onOp({ op: 'get', key })} title="Look the key up in every store: found, latency, device reads">Get</button>
      </form>
      <div className="op-row" role="group" aria-label="Bulk insert and running ahead">
        {hasArg(info, 'fill', 'count') && <OpArgField session={info} op="fill" arg="count" id="stores-fill" label="new records" value={fill} onChange={(v) => setFill(Number(v))} />}
        <button type="button" disabled={busy} onClick={() => onOp({ op: 'fill', count: fill })} title="Insert this many new records into every store at once">Fill</button>
        {hasArg(info, 'run_until', 'ops') && (
          <>
            <OpArgField session={info} op="run_until" arg="ops" id="stores-run-ops" label="skip ahead (operations)" value={ops} onChange={(v) => setOps(Number(v))} />
            <button type="button" disabled={busy} onClick={() => onOp({ op: 'run_until', ops })}
              title="Let virtual time run, the workload arriving at the rate, for this many operations">Skip ahead</button>
          </>
        )}
      </div>
    </div>
  );
}

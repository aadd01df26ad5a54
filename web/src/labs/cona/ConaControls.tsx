/**
 * The CONA view's controls, each generated from the `cona` session's schema (range, unit,
 * help, choices): the store's shape (B, the trie's block sizes, fragments, the last level's
 * filter, the merge thread; a change starts a new store), folded under a line that names it,
 * the background load (a YCSB workload and its rate, changed in the running store), and the operations: put / get / delete a key, fill N new records, crash and
 * recover. A field the schema lacks is left out rather than invented.
 */
import { useState, type FormEvent } from 'react';
import { OpArgField, SessionField } from '../../app/SessionField';
import type { SessionInfo } from '../../model/session/schema';
import { EVENT_NAMES, setupSummary } from './conaReadout';
import type { ConaConfig, ConaOp } from './conaTypes';

/** Display names for the schema's choices (a choice not named here shows as itself; the core's labels win). */
const NAMES: Record<string, Record<string, string>> = {
  trie: { mix: 'per-level mix (4 · 16 · 64)', '4': 'block 4 everywhere', '16': 'block 16 everywhere', '64': 'block 64 everywhere' },
  fragments: { '16': '16-bit', off: 'off' },
  last_filter: { none: 'none', '8': '8-bit (full filter)' },
  workload: {
    insert: 'inserts (load phase)', a: 'A: 50% reads, 50% updates', b: 'B: 95% reads, 5% updates', c: 'C: reads only',
    d: 'D: 95% reads of the latest, 5% inserts', e: 'E: short scans, 5% inserts', f: 'F: 50% reads, 50% read-modify-write',
  },
};

/** The display names of `param`'s choices, every choice named (SessionField requires it); none when the core labels them. */
export function namesFor(info: SessionInfo, param: string): Record<string, string> | undefined {
  const spec = info.params.find((p) => p.name === param);
  if (!spec?.choices || (spec as { labels?: unknown }).labels) return undefined;
  const mine = NAMES[param] ?? {};
  return Object.fromEntries(spec.choices.map((c) => [c, mine[c] ?? c]));
}

type RunEvent = Extract<ConaOp, { op: 'run_until' }>['event'];

/** run_until's events by name (each choice named; one this view does not know shows as itself). */
function eventNames(info: SessionInfo): Record<string, string> {
  const choices = info.ops.find((o) => o.name === 'run_until')?.args.find((a) => a.name === 'event')?.choices ?? [];
  return Object.fromEntries(choices.map((c) => [c, EVENT_NAMES[c] ?? c]));
}

const hasParam = (info: SessionInfo, name: string) => info.params.some((p) => p.name === name);
const hasArg = (info: SessionInfo, op: string, arg: string) => info.ops.some((o) => o.name === op && o.args.some((a) => a.name === arg));

interface Props {
  info: SessionInfo;
  config: Required<ConaConfig>;
  onConfig: (patch: Partial<Required<ConaConfig>>) => void;
}

/** The store's shape, folded under a line that names it (a change starts a new store). */
export function ConaStoreSetup({ info, config, onConfig }: Props) {
  const bind = { session: info, config, onConfig };
  const field = (name: keyof ConaConfig & string, id: string, label: string, extra: { step?: number } = {}) =>
    hasParam(info, name) ? <SessionField {...bind} name={name} id={id} label={label} names={namesFor(info, name)} {...extra} /> : null;
  return (
    <details className="fawnds-setup cona-setup">
      <summary data-testid="cona-setup-summary">{setupSummary(config)}</summary>
      <div className="live-config" role="group" aria-label="The store (a change starts a new one)">
        {field('buffer_kb', 'cona-buffer', 'buffer B (KB)', { step: 8 })}
        {field('trie', 'cona-trie', 'trie block size')}
        {field('fragments', 'cona-fragments', 'fragments (upper levels)')}
        {field('last_filter', 'cona-last-filter', 'last-level filter')}
        {field('merge_thread', 'cona-merge-thread', 'merge thread')}
        {field('records', 'cona-records', 'preload records')}
        {field('max_writes', 'cona-max-writes', 'device sized for (records)')}
        {field('scale', 'cona-scale', 'machine scale')}
      </div>
    </details>
  );
}

/** The background load: a YCSB workload and its rate (both change the running store). */
export function ConaLoadFields({ info, config, onConfig }: Props) {
  const bind = { session: info, config, onConfig };
  return (
    <div className="live-config" role="group" aria-label="Background load (changes the running store)">
      {hasParam(info, 'workload') && <SessionField {...bind} name="workload" id="cona-workload" label="background load (YCSB)" names={namesFor(info, 'workload')} />}
      {hasParam(info, 'rate_ops_per_s') && <SessionField {...bind} name="rate_ops_per_s" id="cona-rate" label="rate (ops/s)" step={100} />}
    </div>
  );
}

interface OpProps {
  info: SessionInfo;
  onOp: (op: ConaOp) => void;
  busy: boolean;
  crashed: boolean;
}

/** Put / get / delete a key, fill N records, sync, crash and recover. */
export function ConaOps({ info, onOp, busy, crashed }: OpProps) {
  const [key, setKey] = useState('alice');
  const [value, setValue] = useState('hello');
  const [fill, setFill] = useState(2000);
  const [until, setUntil] = useState<RunEvent>('merge_done');
  const submit = (e: FormEvent) => e.preventDefault();
  const off = busy || crashed;
  return (
    <div className="fawnds-controls cona-ops">
      <form className="op-row" onSubmit={submit} aria-label="Key operations">
        {hasArg(info, 'put', 'key') && <OpArgField session={info} op="put" arg="key" id="cona-key" label="key" value={key} onChange={(v) => setKey(String(v))} />}
        {hasArg(info, 'put', 'value') && <OpArgField session={info} op="put" arg="value" id="cona-value" label="value (put)" value={value} onChange={(v) => setValue(String(v))} />}
        <button type="submit" className="primary" disabled={off} onClick={() => onOp({ op: 'put', key, value })}>Put</button>
        <button type="button" disabled={off} onClick={() => onOp({ op: 'get', key })} title="Look the key up and draw its path down the levels">Get</button>
        <button type="button" disabled={off} onClick={() => onOp({ op: 'delete', key })} title="Write a delete marker: the newest version wins">Delete</button>
      </form>
      <div className="op-row" role="group" aria-label="Bulk insert and skipping ahead">
        {hasArg(info, 'fill', 'count') && <OpArgField session={info} op="fill" arg="count" id="cona-fill" label="new records" value={fill} onChange={(v) => setFill(Number(v))} />}
        <button type="button" disabled={off} onClick={() => onOp({ op: 'fill', count: fill })} title="Insert this many new records at once">Fill</button>
        {hasArg(info, 'run_until', 'event') && (
          <>
            <OpArgField session={info} op="run_until" arg="event" id="cona-until" label="skip ahead until" value={until}
              onChange={(v) => setUntil(v as RunEvent)} names={eventNames(info)} />
            <button type="button" disabled={off} onClick={() => onOp({ op: 'run_until', event: until })}
              title="Let virtual time run, the load arriving, until the event happens">Skip ahead</button>
          </>
        )}
      </div>
      <div className="op-row" role="group" aria-label="Durability and crashes">
        <button type="button" disabled={off} onClick={() => onOp({ op: 'sync' })}
          title="Make everything acknowledged durable: the manifest names the cells">Sync</button>
        <button type="button" className="danger" disabled={off} onClick={() => onOp({ op: 'crash' })}
          title="Cut the power: the buffers and indexes in DRAM are lost, unsynced writes undone">Crash</button>
        <button type="button" disabled={busy || !crashed} onClick={() => onOp({ op: 'recover' })}
          title="Restart the device and reopen the store from its manifest">Recover</button>
      </div>
    </div>
  );
}

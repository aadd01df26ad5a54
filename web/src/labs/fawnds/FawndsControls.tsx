/**
 * The FAWN-DS lab's operation controls: put / get / delete a key, compact / split / merge a
 * store, checkpoint, sync, crash and recover, a bulk fill, and the background load. Each
 * button sends one operation through `onOp`; the result or the error shows beneath. The load's
 * fields come from the fawnds session's schema, the key, value, fraction and fill count from
 * its operations' argument schemas.
 */
import { useState, type FormEvent } from 'react';
import type { FawndsConfig, FawndsOp, FawndsSnapshot } from './fawndsTypes';
import { Field } from '../../app/LiveControls';
import { OpArgField, SessionField, sessionSchema } from '../../app/SessionField';

interface Props {
  snap: FawndsSnapshot | null;
  /** The store the store-level buttons act on. */
  store: number;
  onStore: (store: number) => void;
  onOp: (op: FawndsOp) => void;
  busy: boolean;
  config: Required<FawndsConfig>;
  onConfig: (patch: Partial<Required<FawndsConfig>>) => void;
}

export function FawndsControls({ snap, store, onStore, onOp, busy, config, onConfig }: Props) {
  const [key, setKey] = useState('apple');
  const [value, setValue] = useState('red');
  const [fraction, setFraction] = useState('0.5');
  const [other, setOther] = useState<number | null>(null);
  const [fill, setFill] = useState(1000);
  const crashed = snap?.crashed ?? false;
  const stores = (snap?.stores ?? []).filter((s) => s.role !== 'building');
  const running = snap?.maintenance.running ?? false;
  const neighbours = stores.filter((s) => s.id !== store);
  const mergeWith = other !== null && neighbours.some((s) => s.id === other) ? other : (neighbours[0]?.id ?? 0);

  const submit = (e: FormEvent) => e.preventDefault();
  const session = sessionSchema('fawnds');
  const bind = { session, config, onConfig };
  const storeLabel = (id: number) => {
    const s = stores.find((x) => x.id === id);
    return s ? `store ${id} ${s.range.label}` : `store ${id}`;
  };

  return (
    <div className="fawnds-controls">
      <form className="op-row" onSubmit={submit} aria-label="Key operations">
        <OpArgField session={session} op="put" arg="key" id="fawnds-key" label="key" value={key} onChange={(v) => setKey(String(v))} />
        <OpArgField session={session} op="put" arg="value" id="fawnds-value" label="value (put)" value={value} onChange={(v) => setValue(String(v))} />
        <button type="submit" className="primary" disabled={busy || crashed} onClick={() => onOp({ op: 'put', key, value })}>Put</button>
        <button type="button" disabled={busy || crashed} onClick={() => onOp({ op: 'get', key })}>Get</button>
        <button type="button" disabled={busy || crashed} onClick={() => onOp({ op: 'delete', key })}>Delete</button>
      </form>

      <div className="op-row" role="group" aria-label="Store maintenance">
        <Field id="fawnds-store" label="store">
          <select id="fawnds-store" value={store} onChange={(e) => onStore(Number(e.target.value))}>
            {stores.map((s) => <option key={s.id} value={s.id}>{storeLabel(s.id)}</option>)}
          </select>
        </Field>
        <button type="button" disabled={busy || crashed || running} onClick={() => onOp({ op: 'compact', store })}
          title="Copy the store's live records into a new file, then swap (SOSP'09 §3.3.2)">Compact</button>
        <OpArgField session={session} op="split" arg="fraction" id="fawnds-fraction" label="split at (fraction of range)" asText
          value={fraction} onChange={(v) => setFraction(String(v))} />
        <button type="button" disabled={busy || crashed || running}
          onClick={() => onOp({ op: 'split', store, fraction: Number(fraction.trim() === '' ? NaN : fraction) })}>Split</button>
        <Field id="fawnds-merge-with" label="merge with">
          <select id="fawnds-merge-with" value={mergeWith} onChange={(e) => setOther(Number(e.target.value))}>
            {neighbours.map((s) => <option key={s.id} value={s.id}>{storeLabel(s.id)}</option>)}
          </select>
        </Field>
        <button type="button" disabled={busy || crashed || running || neighbours.length === 0} onClick={() => onOp({ op: 'merge', a: store, b: mergeWith })}>Merge</button>
      </div>

      <div className="op-row" role="group" aria-label="Durability and crashes">
        <button type="button" disabled={busy || crashed} onClick={() => onOp({ op: 'checkpoint', store })}
          title="Write this store's index image and superblock, then flush">Checkpoint store {store}</button>
        <button type="button" disabled={busy || crashed} onClick={() => onOp({ op: 'checkpoint' })}>Checkpoint all</button>
        <button type="button" disabled={busy || crashed} onClick={() => onOp({ op: 'sync' })}
          title="Flush the device: every write acknowledged so far becomes durable">Sync</button>
        <button type="button" className="danger" disabled={busy || crashed} onClick={() => onOp({ op: 'crash' })}
          title="Cut the power: unsynced writes are lost, and so is the DRAM index">Crash</button>
        <button type="button" disabled={busy || !crashed} onClick={() => onOp({ op: 'recover' })}
          title="Reopen every file: newest checkpoint, then replay the log after it">Recover</button>
        {snap && !crashed && (
          <span className="muted small" data-testid="fawnds-unsynced">unsynced: {snap.device.unsynced_bytes.toLocaleString('en-US')} bytes</span>
        )}
      </div>

      <div className="op-row" role="group" aria-label="Bulk load and background load">
        <OpArgField session={session} op="fill" arg="count" id="fawnds-fill" label="keys k0 … (bulk put)" value={fill} onChange={(v) => setFill(Number(v))} />
        <button type="button" disabled={busy || crashed} onClick={() => onOp({ op: 'fill', count: fill })}>Fill</button>
        <Field id="fawnds-load" label="background load">
          <input id="fawnds-load" type="checkbox" checked={config.load_rate_per_s > 0}
            onChange={(e) => onConfig({ load_rate_per_s: e.target.checked ? 500 : 0 })} />
        </Field>
        <SessionField {...bind} name="load_rate_per_s" id="fawnds-rate" label="ops/s" step={100} />
        <SessionField {...bind} name="load_put_fraction" id="fawnds-put-fraction" label="put fraction" step={0.1} />
        <SessionField {...bind} name="load_keys" id="fawnds-load-keys" label="load keys" />
        <SessionField {...bind} name="value_bytes" id="fawnds-value-bytes" label="value bytes" />
      </div>
    </div>
  );
}

/**
 * The FAWN-DS node's setup (device, stores, index bits, file size, capacity, maintenance lock,
 * page cache): fields whose change starts a new node, folded away by default.
 */
import { Field, numberFrom } from '../../app/LiveControls';
import type { FawndsConfig } from './fawndsTypes';

type Config = Required<FawndsConfig>;

const PROFILES: Array<[string, string]> = [
  ['sandisk-cf-4gb', 'SanDisk CF card (FAWN prototype)'],
  ['intel-x25m', 'Intel X25-M SSD'],
  ['intel-x25e', 'Intel X25-E SSD'],
  ['nvm-4ch', 'NVM, 4 channels'],
  ['disk-7200', '7200 rpm disk'],
];

/** The maintenance lock's presets: the SOSP prototype's and the thesis's. */
const LOCK_PRESETS: Array<[number, string]> = [[25000, "25 ms (SOSP'09 §3.3.3: 20–30 ms)"], [20, '20 µs (thesis: 5–50 µs)']];

export function FawndsSetup({ config, onConfig }: { config: Config; onConfig: (patch: Partial<Config>) => void }) {
  return (
    <details className="fawnds-setup">
      <summary>Node setup (changing it starts a new node)</summary>
      <div className="live-config">
        <Field id="fawnds-profile" label="device">
          <select id="fawnds-profile" value={config.profile} onChange={(e) => onConfig({ profile: e.target.value })}>
            {PROFILES.map(([id, name]) => <option key={id} value={id}>{name}</option>)}
          </select>
        </Field>
        <Field id="fawnds-stores" label="stores">
          <input id="fawnds-stores" type="number" min={1} max={16} value={config.stores}
            onChange={(e) => onConfig({ stores: Math.round(numberFrom(e.target.value, config.stores)) })} />
        </Field>
        <Field id="fawnds-index-bits" label="index bits (2^i buckets)">
          <input id="fawnds-index-bits" type="number" min={4} max={22} value={config.index_bits}
            onChange={(e) => onConfig({ index_bits: Math.round(numberFrom(e.target.value, config.index_bits)) })} />
        </Field>
        <Field id="fawnds-file-mb" label="file per store (MB)">
          <input id="fawnds-file-mb" type="number" min={1} max={1024} value={config.file_mb}
            onChange={(e) => onConfig({ file_mb: Math.round(numberFrom(e.target.value, config.file_mb)) })} />
        </Field>
        <Field id="fawnds-capacity" label="device capacity (MB)">
          <input id="fawnds-capacity" type="number" min={16} max={2048} value={config.capacity_mb}
            onChange={(e) => onConfig({ capacity_mb: Math.round(numberFrom(e.target.value, config.capacity_mb)) })} />
        </Field>
        <Field id="fawnds-lock" label="maintenance lock">
          <select id="fawnds-lock" value={LOCK_PRESETS.some(([v]) => v === config.lock_hold_us) ? config.lock_hold_us : 'custom'}
            onChange={(e) => onConfig({ lock_hold_us: Number(e.target.value) })}>
            {LOCK_PRESETS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
            {!LOCK_PRESETS.some(([v]) => v === config.lock_hold_us) && <option value="custom">{config.lock_hold_us} µs</option>}
          </select>
        </Field>
        <Field id="fawnds-cache" label="page cache (MB, 0: none)">
          <input id="fawnds-cache" type="number" min={0} max={1024} value={config.page_cache_mb}
            onChange={(e) => onConfig({ page_cache_mb: Math.round(numberFrom(e.target.value, config.page_cache_mb)) })} />
        </Field>
      </div>
    </details>
  );
}

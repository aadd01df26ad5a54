/**
 * The FAWN-DS node's setup (device, stores, index bits, file size, capacity, maintenance lock,
 * page cache): fields whose change starts a new node, folded away by default. Each control is
 * generated from the fawnds session's schema; the lock offers the papers' two values.
 */
import { SessionField, sessionSchema } from '../../app/SessionField';
import type { FawndsConfig } from './fawndsTypes';

type Config = Required<FawndsConfig>;

/** The maintenance lock's presets: the SOSP prototype's and the thesis's. */
export const LOCK_PRESETS: ReadonlyArray<readonly [number, string]> = [[25000, "25 ms (SOSP'09 §3.3.3: 20–30 ms)"], [20, '20 µs (thesis: 5–50 µs)']];

export function FawndsSetup({ config, onConfig }: { config: Config; onConfig: (patch: Partial<Config>) => void }) {
  const bind = { session: sessionSchema('fawnds'), config, onConfig };
  return (
    <details className="fawnds-setup">
      <summary>Node setup (changing it starts a new node)</summary>
      <div className="live-config">
        <SessionField {...bind} name="profile" id="fawnds-profile" label="device" />
        <SessionField {...bind} name="stores" id="fawnds-stores" label="stores" />
        <SessionField {...bind} name="index_bits" id="fawnds-index-bits" label="index bits (2^i buckets)" />
        <SessionField {...bind} name="file_mb" id="fawnds-file-mb" label="file per store (MB)" />
        <SessionField {...bind} name="capacity_mb" id="fawnds-capacity" label="device capacity (MB)" />
        <SessionField {...bind} name="lock_hold_us" id="fawnds-lock" label="maintenance lock" presets={LOCK_PRESETS} />
        <SessionField {...bind} name="page_cache_mb" id="fawnds-cache" label="page cache (MB, 0: none)" />
      </div>
    </details>
  );
}

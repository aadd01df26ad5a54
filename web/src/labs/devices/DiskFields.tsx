/**
 * The live disk's configuration fields, each generated from the devices.disk session's schema
 * (range, unit, help, choices; the profiles' names come from the core). The profile starts a
 * new disk; the rest change the running one.
 */
import { SessionField, sessionSchema } from '../../app/SessionField';
import type { DiskConfig } from './deviceTypes';

type Config = Required<DiskConfig>;

export const DISK_SCHEDULER_NAMES = { fifo: 'FIFO (arrival order)', sstf: 'SSTF (shortest seek first)' };

export function DiskFields({ config, update }: { config: Config; update: (patch: Partial<Config>) => void }) {
  const bind = { session: sessionSchema('devices.disk'), config, onConfig: update };
  return (
    <div className="live-config">
      <SessionField {...bind} name="profile" id="disk-profile" label="disk" />
      <SessionField {...bind} name="workload" id="disk-workload" label="reads" />
      <SessionField {...bind} name="rate_per_s" id="disk-rate" label="rate (reads/s)" step={10} />
      <SessionField {...bind} name="scheduler" id="disk-scheduler" label="scheduler" names={DISK_SCHEDULER_NAMES} />
      <SessionField {...bind} name="spin_down_s" id="disk-spin-down" label="spin down after (s)" step={1} />
      <SessionField {...bind} name="io_kb" id="disk-io-kb" label="request size (KB)" />
    </div>
  );
}

/**
 * The live flash device's configuration fields, each generated from the devices.flash session's
 * schema (range, unit, help, choices; the profiles' names come from the core). The profile,
 * blocks, pages per block, spare and prefill start a new device; the rest change the running one.
 */
import { SessionField, sessionSchema } from '../../app/SessionField';
import type { FlashConfig } from './deviceTypes';

type Config = Required<FlashConfig>;

export const FLASH_WORKLOAD_NAMES = { sequential: 'sequential', random: 'random', 'semi-random': 'semi-random (streams)' };

export function FlashFields({ config, update }: { config: Config; update: (patch: Partial<Config>) => void }) {
  const bind = { session: sessionSchema('devices.flash'), config, onConfig: update };
  return (
    <div className="live-config">
      <SessionField {...bind} name="profile" id="flash-profile" label="device" />
      <SessionField {...bind} name="workload" id="flash-workload" label="host writes" names={FLASH_WORKLOAD_NAMES} />
      <SessionField {...bind} name="streams" id="flash-streams" label="streams" disabled={config.workload !== 'semi-random'} />
      <SessionField {...bind} name="queue_depth" id="flash-queue-depth" label="queue depth" />
      <SessionField {...bind} name="overprovision" id="flash-overprovision" label="spare (over-provisioning)" step={0.05} />
      <SessionField {...bind} name="blocks" id="flash-blocks" label="erase blocks" step={8} />
      <SessionField {...bind} name="pages_per_block" id="flash-pages" label="pages per block" step={4} />
      <SessionField {...bind} name="prefill" id="flash-prefill" label="start used (written once)" />
    </div>
  );
}

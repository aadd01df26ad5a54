/**
 * The block view's controls, each generated from the `vector.block` session's schema (range,
 * unit, help, the hosts' names): the scheduler, the interrupt coalescing and its deferral, the
 * queue depth and the block size change the running session; the host starts a new one.
 */
import { SessionField, sessionSchema } from '../../../app/SessionField';
import { BLOCK_SESSION } from './blockSession';
import type { BlockConfig } from './blockTypes';

interface Props {
  config: Required<BlockConfig>;
  onConfig: (patch: Partial<Required<BlockConfig>>) => void;
}

export function BlockControls({ config, onConfig }: Props) {
  const bind = { session: sessionSchema(BLOCK_SESSION), config, onConfig };
  return (
    <>
      <div className="live-config" role="group" aria-label="Block layer (change the running fio)">
        <SessionField {...bind} name="scheduler" id="vblk-scheduler" label="I/O scheduler" />
        <SessionField {...bind} name="coalescing" id="vblk-coalescing" label="interrupt coalescing" />
        <SessionField {...bind} name="defer_us" id="vblk-defer" label="defer D (µs)" step={10} />
        <SessionField {...bind} name="iodepth" id="vblk-iodepth" label="iodepth" />
        <SessionField {...bind} name="block_bytes" id="vblk-block" label="block size (bytes)" />
      </div>
      <div className="live-config" role="group" aria-label="Host (starts a new run)">
        <SessionField {...bind} name="host" id="vblk-host" label="host" />
      </div>
    </>
  );
}

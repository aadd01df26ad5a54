/**
 * The networked back-end's controls, each generated from the `vector.net` session's schema
 * (range, unit, help, the host profiles' names): the widths G and R, the multiread pattern and
 * the queue's timeout, the offered load (in thousands of lookups per second) — all changed in
 * the running session — then the clients, cores and host profile, which start a new one.
 */
import { SessionField, sessionSchema } from '../../../app/SessionField';
import type { NetConfig } from './netTypes';

interface Props {
  config: Required<NetConfig>;
  onConfig: (patch: Partial<Required<NetConfig>>) => void;
}

export function NetControls({ config, onConfig }: Props) {
  const bind = { session: sessionSchema('vector.net'), config, onConfig };
  return (
    <>
      <div className="live-config" role="group" aria-label="Vector widths and load (change the running back-end)">
        <SessionField {...bind} name="multiget" id="vnet-multiget" label="multiget G (keys/RPC)" />
        <SessionField {...bind} name="multiread" id="vnet-multiread" label="multiread R (keys/command)" />
        <SessionField {...bind} name="pattern" id="vnet-pattern" label="multiread pattern" />
        <SessionField {...bind} name="queue_timeout_us" id="vnet-timeout" label="queue timeout (µs)" step={50} />
        <SessionField {...bind} name="load_per_s" id="vnet-load" label="offered load (k lookups/s)" step={10}
          scale={{ factor: 1000, unit: 'k lookups/s' }} />
      </div>
      <div className="live-config" role="group" aria-label="Back-end (starts a new run)">
        <SessionField {...bind} name="clients" id="vnet-clients" label="clients" />
        <SessionField {...bind} name="cores" id="vnet-cores" label="cores (0: the host's)" />
        <SessionField {...bind} name="host" id="vnet-host" label="host" />
      </div>
    </>
  );
}

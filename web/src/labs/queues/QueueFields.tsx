/**
 * The live queue's configuration fields, each generated from the queues session's schema
 * (range, unit, help, choices): servers (a new queue), arrival rate (shown in thousands per
 * second), mean service time and its distribution (the running queue).
 */
import type { ReactNode } from 'react';
import { SessionField, sessionSchema } from '../../app/SessionField';
import type { LiveConfig } from './queueTypes';

type Config = Required<LiveConfig>;

export function QueueFields({ config, update, children }: { config: Config; update: (patch: Partial<Config>) => void; children?: ReactNode }) {
  const bind = { session: sessionSchema('queues'), config, onConfig: update };
  return (
    <div className="live-config">
      <SessionField {...bind} name="servers" id="live-servers" label="servers k" />
      <SessionField {...bind} name="arrival_rate_per_s" id="live-arrivals" label="arrivals λ (k/s)"
        scale={{ factor: 1000, unit: 'k requests/s' }} />
      <SessionField {...bind} name="service_us" id="live-service-us" label="mean service S (µs)" />
      <SessionField {...bind} name="service" id="live-service" label="service" />
      {children}
    </div>
  );
}

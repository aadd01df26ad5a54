/** A `vector.net` snapshot for the view's tests (from a session run: G = R = 32 at 400K lookups/s, trimmed). */
import type { NetSnapshot } from './netTypes';

export function netSnapshot(over: Partial<NetSnapshot> = {}): NetSnapshot {
  return {
    t_ns: 208186440,
    window_ns: 20000000,
    config: { multiget: 32, multiread: 32, pattern: 'auto', queue_timeout_us: 0, load_per_s: 400000, clients: 25, cores: 8, host: 'xeon-x5570' },
    path: 'direct',
    rates: {
      offered_per_s: 408000, throughput_per_s: 400000, rpcs_per_s: 12500, packets_per_s: 37850, nic_irqs_per_s: 15200,
      syscalls_per_s: 25200, commands_per_s: 12600, io_irqs_per_s: 12600,
    },
    latency_us: { rpcs: 250, p50: 392.33, p99: 598.99, mean: 412.69 },
    cost: {
      kinds: ['nic_irq', 'tcp', 'syscall', 'rpc', 'lookup', 'queue', 'submit', 'io_irq', 'wakeup'],
      cores: [0.137, 0.132, 0.076, 0.532, 0.607, 0, 0.063, 0.101, 0.076],
      us_per_key: [0.342, 0.331, 0.19, 1.331, 1.518, 0, 0.158, 0.252, 0.189],
      events_per_key: [0.038, 0.095, 0.063, 0.063, 1.012, 0, 0.032, 0.032, 0.032],
      cores_busy: 1.724,
    },
    core_busy: [0.738, 0.51, 0.269, 0.133, 0.047, 0.024, 0.004, 0],
    queue_depth: Array.from({ length: 25 }, () => 0),
    channels: { occupied: [0.275, 0.215, 0.24, 0.215], commands: [1, 0, 0, 0] },
    inflight: {
      stages: ['client', 'wire_in', 'nic', 'thread', 'queue', 'device', 'irq', 'reply', 'wire_out'],
      total: 8,
      rpcs_at: [1, 0, 0, 4, 0, 1, 1, 0, 1],
      keys_at: [32, 0, 0, 128, 0, 32, 32, 0, 32],
      rpcs: [
        [718, 8, 32, 19, -1, 21.53], [719, 3, 32, 19, -1, 167.93], [720, 6, 32, 9, -1, 10.91], [721, 3, 32, 19, -1, 25.12],
        [722, 3, 32, 16, -1, 25.12], [723, 3, 32, 11, -1, 21.62], [724, 0, 32, 14, -1, 14.94], [725, 5, 32, 2, 0, 3.5],
      ],
    },
    trail: [
      [168186440, 353600, 350400, 392.16, 619.58],
      [188186440, 396800, 396800, 392.16, 634.95],
      [208186440, 408000, 400000, 392.33, 598.99],
    ],
    totals: { offered_keys: 20000, completed_keys: 19800, rpcs: 620, commands: 630 },
    ...over,
  };
}

/** The same at G = R = 1 (single keys: dots, not bars). */
export function singleKeySnapshot(): NetSnapshot {
  const s = netSnapshot();
  return {
    ...s,
    config: { ...s.config, multiget: 1, multiread: 1 },
    inflight: { ...s.inflight, keys_at: s.inflight.rpcs_at.slice(), rpcs: s.inflight.rpcs.map((r) => [r[0], r[1], 1, r[3], r[4], r[5]]) },
  };
}

import { describe, expect, it } from 'vitest';
import { netSnapshot } from './netFixtures';
import { costRows, headline } from './netReadout';
import { describeTrace } from './netSession';

describe('netReadout', () => {
  it('reads the headline numbers with stable ids', () => {
    const h = headline(netSnapshot());
    expect(h.map((r) => r.id)).toEqual(['throughput', 'offered', 'p50', 'p99', 'rpcs', 'packets', 'nic-irqs', 'commands', 'io-irqs', 'cores-busy']);
    expect(h[0]).toEqual({ id: 'throughput', label: 'Throughput', value: '400k lookups/s' });
    expect(h[2]!.value).toBe('392 µs');
    expect(h[3]!.value).toBe('599 µs');
  });

  it('shows no latency before an RPC is answered', () => {
    const h = headline(netSnapshot({ latency_us: { rpcs: 0, p50: 0, p99: 0, mean: 0 } }));
    expect(h[2]!.value).toBe('—');
  });

  it('gives a row per cost kind and the total', () => {
    const rows = costRows(netSnapshot());
    expect(rows).toHaveLength(10);
    expect(rows[3]).toMatchObject({ kind: 'rpc', label: 'RPC (Thrift)', cores: '0.53', usPerKey: '1.33' });
    expect(rows.at(-1)).toMatchObject({ kind: 'total', cores: '1.72', usPerKey: '4.31' });
  });

  it('describes a trace stage by stage', () => {
    const text = describeTrace({ id: 9, keys: 4, conn: 3, latency_us: 301.5, channels: [2],
      stages: [{ stage: 'client', at_us: 0 }, { stage: 'wire_in', at_us: 12 }, { stage: 'device', at_us: 150 }] });
    expect(text).toBe('RPC 9 (4 keys, connection 3, DMA channel 2), answered after 302 µs: client 0 µs → on the wire 12 µs → NVM device 150 µs → answered 302 µs.');
  });
});

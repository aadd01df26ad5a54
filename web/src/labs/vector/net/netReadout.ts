/**
 * The networked back-end's numbers as text (for every reader, screen readers and the e2e
 * tests too): the headline rates and latencies, and a row per cost kind of where the cores'
 * time goes. Pure.
 */
import { fmt } from '../../../viz/format';
import { costStyle } from './netPalette';
import type { NetSnapshot } from './netTypes';

export interface Reading {
  /** Stable: the element's test id is `vector-net-<id>`. */
  id: string;
  label: string;
  value: string;
}

export function headline(sn: NetSnapshot): Reading[] {
  const r = sn.rates;
  const l = sn.latency_us;
  const us = (v: number) => (l.rpcs > 0 ? `${fmt(v)} µs` : '—');
  return [
    { id: 'throughput', label: 'Throughput', value: `${fmt(r.throughput_per_s)} lookups/s` },
    { id: 'offered', label: 'Offered load', value: `${fmt(r.offered_per_s)} lookups/s` },
    { id: 'p50', label: 'Median latency (p50)', value: us(l.p50) },
    { id: 'p99', label: '99th percentile (p99)', value: us(l.p99) },
    { id: 'rpcs', label: 'RPCs', value: `${fmt(r.rpcs_per_s)}/s` },
    { id: 'packets', label: 'Packets (in + out)', value: `${fmt(r.packets_per_s)}/s` },
    { id: 'nic-irqs', label: 'NIC interrupts', value: `${fmt(r.nic_irqs_per_s)}/s` },
    { id: 'commands', label: 'Device commands', value: `${fmt(r.commands_per_s)}/s` },
    { id: 'io-irqs', label: 'Storage interrupts', value: `${fmt(r.io_irqs_per_s)}/s` },
    { id: 'cores-busy', label: 'Cores busy', value: `${fmt(sn.cost.cores_busy)} of ${sn.config.cores}` },
  ];
}

export interface CostRow {
  kind: string;
  label: string;
  per: string;
  colour: string;
  cores: string;
  usPerKey: string;
  eventsPerKey: string;
}

/** A row per cost kind with its cores busy, core-µs and events per lookup; then the total. */
export function costRows(sn: NetSnapshot): CostRow[] {
  const c = sn.cost;
  const rows: CostRow[] = c.kinds.map((kind, i) => {
    const s = costStyle(kind);
    return {
      kind, label: s.label, per: s.per, colour: s.colour,
      cores: fmt(c.cores[i] ?? 0, 2), usPerKey: fmt(c.us_per_key[i] ?? 0, 3), eventsPerKey: fmt(c.events_per_key[i] ?? 0, 3),
    };
  });
  rows.push({
    kind: 'total', label: 'total', per: '', colour: '',
    cores: fmt(c.cores_busy, 3), usPerKey: fmt(c.us_per_key.reduce((a, b) => a + b, 0), 3), eventsPerKey: '',
  });
  return rows;
}

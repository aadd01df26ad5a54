/**
 * The block view's numbers as text lines (label, value, a stable test id): IOPS, completions
 * and interrupts per second, completions per interrupt, each CPU's busy share, the issue path
 * and its phases, the device's queue. Pure.
 */
import { fmt } from '../../../viz/format';
import type { BlockSnapshot } from './blockTypes';

export interface ReadoutLine {
  id: string;
  label: string;
  value: string;
}

const pct = (f: number) => `${Math.round(f * 100)}%`;

export function blockReadout(sn: BlockSnapshot): ReadoutLine[] {
  const p = sn.phases_us;
  return [
    { id: 'iops', label: 'IOPS', value: fmt(Math.round(sn.iops)) },
    { id: 'completions_per_irq', label: 'completions per interrupt', value: fmt(sn.completions_per_irq) },
    { id: 'interrupts_per_s', label: 'interrupts per second', value: fmt(Math.round(sn.interrupts_per_s)) },
    { id: 'cpu_busy', label: 'CPU busy', value: sn.cpu_busy.map((b, c) => `cpu ${c} ${pct(b)}`).join(', ') },
    { id: 'issue_us', label: 'issue path Q→D (median / min)', value: `${fmt(sn.issue_us.median)} / ${fmt(sn.issue_us.min)} µs` },
    { id: 'phases_us', label: 'phases Q→G · G→I · I→D · D→Q (medians)', value: `${fmt(p.QG)} · ${fmt(p.GI)} · ${fmt(p.ID)} · ${fmt(p.DQ)} µs` },
    { id: 'device_queue', label: 'at the device (NCQ holds at most)', value: `${sn.device_queue} (${sn.ncq_depth})` },
    { id: 'totals', label: 'issued / completed / interrupts', value: `${sn.totals.issued.toLocaleString('en-US')} / ${sn.totals.completed.toLocaleString('en-US')} / ${sn.totals.interrupts.toLocaleString('en-US')}` },
  ];
}

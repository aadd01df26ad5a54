import { describe, expect, it } from 'vitest';
import { blockSnapshot } from './blockFixtures';
import { blockReadout } from './blockReadout';

describe('blockReadout', () => {
  it('gives IOPS, completions per interrupt and each CPU busy as text', () => {
    const lines = Object.fromEntries(blockReadout(blockSnapshot({ completions_per_irq: 3.52 })).map((l) => [l.id, l.value]));
    expect(lines.iops).toBe('19k');
    expect(lines.completions_per_irq).toBe('3.52');
    expect(lines.cpu_busy).toBe('cpu 0 98%, cpu 1 12%');
    expect(lines.issue_us).toBe('40.2 / 33.1 µs');
    expect(lines.phases_us).toBe('6.1 · 4.9 · 11.8 · 17.4 µs');
    expect(lines.device_queue).toBe('33 (31)');
    expect(lines.totals).toBe('1,200 / 1,136 / 1,136');
  });
});

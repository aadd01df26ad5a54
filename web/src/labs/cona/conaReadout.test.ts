import { describe, expect, it } from 'vitest';
import { conaSnapshot, emptySnapshot, waitingSnapshot } from './conaFixtures';
import { cellDetail, cellRows, counterRows, describeResult, eventLines, isCrashed, loadLine, setupSummary, lookupTitle, mergeLine, placeName, stepText, structureSummary } from './conaReadout';

describe('counterRows', () => {
  it('gives every counter the issue asks for once, with a unit', () => {
    const rows = counterRows(conaSnapshot());
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ['levels', 'entries', 'dram_bytes_per_key', 'merge_steps_per_insert', 'k_plus_1', 'exposed_merge_ms', 'store_write_amp',
      'ftl_write_amp', 'write_iops', 'read_iops', 'cache_hit_ratio']) expect(ids).toContain(id);
    for (const r of rows) expect(r.unit, r.id).not.toBe('');
  });

  it('reads the numbers: k + 1 from the levels, the hit ratio in percent, tries per indexed key, the hidden merge share', () => {
    const by = Object.fromEntries(counterRows(conaSnapshot()).map((r) => [r.id, r]));
    expect(by.k_plus_1!.value).toBe('5');
    expect(by.cache_hit_ratio!.value).toBe('87.3');
    expect(by.write_iops!.value).toBe('151k');
    // Visible cells: 297·2·2.1 + 594·0.78 + 1188·0.78 + 2376·0.46 over 4752 entries.
    const trie = Math.round(297 * 2.1) * 2 + Math.round(594 * 0.78) + Math.round(1188 * 0.78) + Math.round(2376 * 0.46);
    expect(Number(by.trie_bytes_per_key!.value)).toBeCloseTo(trie / 4752, 2);
    expect(by.hidden_pct!.value).toBe('99.1');
  });

  it('an empty store has no per-key figures to divide', () => {
    const by = Object.fromEntries(counterRows(emptySnapshot()).map((r) => [r.id, r]));
    expect(by.trie_bytes_per_key!.value).toBe('—');
    expect(by.hidden_pct!.value).toBe('—');
  });
});

describe('cellRows', () => {
  it('lists the cells level by level with their memory per key, and what each is doing', () => {
    const rows = cellRows(conaSnapshot());
    expect(rows.map((r) => r.place)).toEqual(['L1 slot 0', 'L1 slot 1', 'L2 slot 0', 'L2 shadow', 'L3 slot 0', 'L4 slot 0']);
    expect(rows[0]!.state).toBe('visible, older');
    expect(rows[2]!.entries).toBe('594 / 594');
    expect(rows[1]!.state).toBe('visible, newer: searched first');
    expect(rows[3]!.state).toBe('shadow, merging: 300 of 594');
    expect(rows[5]).toMatchObject({ block: '64', fragments: 'none', trieBpk: '0.46', fragmentBpk: '0' });
    expect(rows[0]).toMatchObject({ block: '4', fragments: '16-bit', fragmentBpk: '2' });
    expect(cellRows(waitingSnapshot())[3]!.state).toBe('shadow, done: waits for the flip');
    const consumed = conaSnapshot({ cells: conaSnapshot().cells.map((c) => (c.level === 1 ? { ...c, consumed: true } : c)) });
    expect(cellRows(consumed)[0]!.state).toBe('merged below: dropped at the flip');
  });
});

describe('the lookup in words', () => {
  it('one line per step: the buffers\' binary search, the tries\' ranks, fragments, the read and the page cache', () => {
    const l = conaSnapshot().last_lookup!;
    expect(stepText(l.steps[0]!)).toBe('active buffer: binary search, position 40: not here');
    expect(stepText(l.steps[2]!)).toBe('L1 slot 1: trie rank 98 (9 symbols decoded) → fragment mismatch: skipped without a flash read');
    expect(stepText(l.steps[5]!)).toBe('L3 slot 0: trie rank 395 (17 symbols decoded) → fragment match → entry read from flash (page-cache miss) → found');
    expect(stepText({ ...l.steps[5]!, fragment: -1, cache_hit: true, outcome: 0 }))
      .toBe('L3 slot 0: trie rank 395 (17 symbols decoded) → no fragments here → entry read: the page cache had it → not here');
    expect(stepText({ ...l.steps[5]!, outcome: 2 })).toContain('a false positive');
    expect(lookupTitle(l)).toBe('get “alice”: found in the L3 slot 0 after 6 steps, 1 flash read, 96.5 µs');
    expect(lookupTitle({ ...l, key: 'record 0', record: 0 })).toMatch(/^get record 0: found/);
  });

  it('names places', () => {
    expect(placeName(0, 1)).toBe('frozen buffer');
    expect(placeName(5, 2)).toBe('L5 shadow');
  });
});

describe('events, summary and results', () => {
  it('lists the events newest first', () => {
    const lines = eventLines(waitingSnapshot());
    expect(lines[0]!.text).toBe('1.5 s: flip — shadows made visible down to level 3, the cells merged into them dropped');
    expect(lines.at(-1)!.text).toContain('induce');
  });

  it('sums the structure up in a sentence, with the merge', () => {
    const s = structureSummary(conaSnapshot());
    expect(s).toContain('4 levels');
    expect(s).toContain("merging level 1 into level 2's shadow, 51%");
    expect(structureSummary(waitingSnapshot())).toContain('waiting for a level-1 slot');
    expect(mergeLine(conaSnapshot())).toBe("Merging level 1's two cells into level 2's shadow: 300 of 594 entries (51%).");
    expect(mergeLine(waitingSnapshot())).toBe('');
  });

  it('says what an operation did from whatever the session returned', () => {
    expect(describeResult({ op: 'get', key: 'alice' }, { found: true, value: 'v1', latency_us: 12, flash_reads: 1 })).toContain('found → “v1”, 1 flash read, 12 µs');
    expect(describeResult({ op: 'get', key: 'bob' }, { found: false })).toContain('get “bob”: not found');
    expect(describeResult({ op: 'get', record: 7 }, { found: true })).toContain('get record 7: found');
    expect(describeResult({ op: 'get', record: 0 }, { found: true, value: '\u0001ab\ufffd\u0007' })).toContain('found → a binary value (a workload record’s random bytes)');
    expect(describeResult({ op: 'get', key: 'k' }, { found: true, value: 'x'.repeat(50) })).toContain(`“${'x'.repeat(40)}…”`);
    expect(describeResult({ op: 'fill', count: 5000 }, { op: 'fill', first_record: 20, records: 5031, induces: 17, merges: 12, flips: 1, duration_us: 250000 }))
      .toBe('filled 5000 new records from record 20 in 250 ms, then synced: 17 induces, 12 merges, 1 flip');
    expect(describeResult({ op: 'crash' }, { unsynced_bytes: 4400, unsynced_writes: 20, buffered_entries: 1 }))
      .toMatch(/^crashed: 20 unsynced writes undone, 1 buffered entry gone;/);
    expect(describeResult({ op: 'run_until', event: 'flip' }, { op: 'run_until', event: 'flip', happened: true, level: 3, waited_ms: 412 })).toBe('ran until the next flip (level 3) after 412 ms');
    expect(describeResult({ op: 'run_until', event: 'induce' }, { happened: false, level: 0, waited_ms: 2000 })).toBe('waited 2 s and gave up: no induce came');
    expect(describeResult({ op: 'recover' }, { levels: 4, entries: 4752, duration_us: 1500 })).toBe('recovered from the manifest: 4 levels, 4752 entries in 1.5 ms (tries and fragments rebuilt from the cells)');
  });
});

describe('cellDetail', () => {
  it('gives a cell\'s entries and memory, or an empty slot\'s capacity', () => {
    const sn = conaSnapshot();
    expect(cellDetail(3, 0, sn)).toBe('L3 slot 0 — visible: 1188 of 1188 entries; trie 927 bytes (0.78 B/key, block 16); fragments 2376 bytes (2 B/key, 16-bit)');
    expect(cellDetail(4, 0, sn)).toContain('no fragments');
    expect(cellDetail(3, 1, sn)).toBe('L3 slot 1: empty (capacity 1188 entries)');
  });
});

describe('isCrashed', () => {
  it('from the snapshot\'s flag, else from the latest crash or recover event', () => {
    const sn = conaSnapshot();
    expect(isCrashed(sn)).toBe(false);
    expect(isCrashed({ ...sn, events: [...sn.events, { t_ns: 2e9, kind: 'crash', level: 0 }] })).toBe(true);
    expect(isCrashed({ ...sn, events: [...sn.events, { t_ns: 2e9, kind: 'crash', level: 0 }, { t_ns: 3e9, kind: 'recover', level: 0 }] })).toBe(false);
    expect(isCrashed({ ...sn, crashed: true })).toBe(true);
  });
});

describe('loadLine', () => {
  it('says what the background load did, or nothing', () => {
    expect(loadLine(conaSnapshot())).toBe('');
    const sn = conaSnapshot({ workload: 'a', rate_ops_per_s: 2000, load: { offered: 900, completed: 880, outstanding: 20, shed: 0, errors: 1, last_error: 'file full', unsynced_writes: 300 } });
    expect(loadLine(sn)).toBe('Background load (YCSB A) at 2000 ops/s: 880 of 900 done, 20 queued, 0 shed, 1 failed (last: file full); 300 writes not yet synced.');
  });
});

describe('setupSummary', () => {
  it('names the store\'s shape', () => {
    expect(setupSummary({ buffer_kb: 64, trie: 'mix', fragments: '16', last_filter: 'none', merge_thread: true, records: 0 }))
      .toBe('Store: B = 64 KB · trie blocks mixed per level · 16-bit fragments · none at the last level · merge thread on — change (starts a new store)');
    expect(setupSummary({ buffer_kb: 8, trie: '64', fragments: 'off', last_filter: '8', merge_thread: false, records: 5000 }))
      .toBe('Store: B = 8 KB · trie block 64 · no fragments · 8-bit at the last level · merges inline (single thread) · 5000 records preloaded — change (starts a new store)');
  });
});

describe('stepText at a level without fragments', () => {
  it('calls a read of another key what it is', () => {
    const s = { level: 4, slot: 0, rank: 3, trie_symbols: 5, fragment: -1 as const, flash_read: true, cache_hit: false, outcome: 2 as const };
    expect(stepText(s)).toBe('L4 slot 0: trie rank 3 (5 symbols decoded) → no fragments here → entry read from flash (page-cache miss) → another key: not here (no fragment to rule it out)');
  });
});

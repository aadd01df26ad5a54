// Lessons: the exercise machinery (variants, hints, judging) and the parser's errors. Each lab's
// own lesson (references resolve, scenarios run with their seeds, worked solutions pass the
// model's check) is web/src/model/lessonRuns/<lab>.test.ts, through lessonSuite.ts.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate } from './expr';
import {
  allVariants, feedback, fillTemplate, formatValue, instantiate, judgeNumeric, parseAnswer, parseLesson, variantValues,
  type Exercise,
} from './lessons';
import { labs } from './lessonSuite';

describe('lesson runs', () => {
  it.each(labs)('lessons/%s has its file in web/src/model/lessonRuns/', (lab) => {
    expect(existsSync(new URL(`./lessonRuns/${lab}.test.ts`, import.meta.url)), `add web/src/model/lessonRuns/${lab}.test.ts: describeLesson('${lab}')`).toBe(true);
  });
});

describe('exercise variants and hints', () => {
  const ex: Exercise = {
    id: 'predict-r', title: 'R at ρ = {rho}', prompt: 'S = {S} µs, ρ = {rho}: R?', kind: 'numeric',
    check: { experiment: 'queues.mm1', metric: 'm', params: { points: 2 } }, tolerance: { rel: 0.1 }, unit: 'µs',
    solution: 'S / (1 - rho)', explanation: 'R = {S} / (1 − {rho}) = {= S / (1 - rho)} µs.', hint: 'Use R = S / (1 − ρ).',
    variants: { S: { values: [10, 5, 20, 40], param: 'service_us' }, rho: { values: [0.8, 0.5] } },
  };

  it('gives student 0 the lesson\'s numbers and others a stable variant of their own', () => {
    expect(variantValues(ex, 0)).toEqual({ S: 10, rho: 0.8 });
    const a = instantiate(ex, 0);
    expect(a.prompt).toBe('S = 10 µs, ρ = 0.8: R?');
    expect(a.solution).toBeCloseTo(50, 9);
    expect(a.explanation).toBe('R = 10 / (1 − 0.8) = 50 µs.');
    expect(a.check.params).toEqual({ points: 2, service_us: 10 });
    expect(instantiate(ex, 1234)).toEqual(instantiate(ex, 1234));
    const seen = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((s) => JSON.stringify(variantValues(ex, s))));
    expect(seen.size).toBeGreaterThan(3);
    for (const s of [7, 99, 123456]) {
      const v = instantiate(ex, s);
      expect(v.solution).toBeCloseTo(v.vars.S! / (1 - v.vars.rho!), 9);
      expect(v.check.params!.service_us).toBe(v.vars.S);
      expect(v.prompt).toContain(`S = ${v.vars.S} µs`);
    }
    expect(allVariants(ex)).toHaveLength(8);
  });

  it('answers a wrong answer with the hint and a direction, never the model\'s value', () => {
    const wrong = feedback(ex, 80, 50);
    expect(wrong).toEqual({ correct: false, hint: 'Use R = S / (1 − ρ).', direction: 'too high' });
    expect(JSON.stringify(wrong)).not.toContain('50');
    expect(feedback(ex, 20, 50)).toMatchObject({ correct: false, direction: 'too low' });
    expect(feedback(ex, 52, 50)).toEqual({ correct: true, metric: 50 });
    const choice: Exercise = { ...ex, kind: 'choice', variants: undefined, solution: 2, options: [{ label: 'a', value: 1 }, { label: 'b', value: 2 }] };
    expect(feedback(choice, 1, 2)).toEqual({ correct: false, hint: ex.hint, direction: null });
  });

  it('fills templates and evaluates expressions, naming what is wrong', () => {
    expect(fillTemplate('{a} and {= a * 1000} but {b} and {{x}}', { a: 12.5 })).toBe('12.5 and 12,500 but {b} and {{x}}');
    expect(formatValue(1770000)).toBe('1,770,000');
    expect(formatValue(2 / 3)).toBe('0.6667');
    expect(evaluate('ln(100) * 2^3 - max(1, 2) / sqrt(4)', {})).toBeCloseTo(Math.log(100) * 8 - 1, 12);
    expect(() => evaluate('S * (2', { S: 1 })).toThrow("expression 'S * (2': expected ')' at position 7");
    expect(() => evaluate('T + 1', { S: 1 })).toThrow("unknown variable 'T'");
    expect(() => evaluate('1 / 0', {})).toThrow('is not a finite number');
  });

  it('refuses exercises without a hint or with malformed variants', () => {
    const { errors } = parseLesson('x', '# T\n', [], [
      { ...ex, hint: '' },
      { ...ex, id: 'b', variants: { S: { values: [] } } },
      { ...ex, id: 'c', solution: 'S / (1 - q)' },
      { ...ex, id: 'd', variants: undefined },
    ]);
    expect(errors).toEqual([
      "exercise 'predict-r': needs a \"hint\" for wrong answers",
      "exercise 'b': variable 'S' needs \"values\": a non-empty array of numbers",
      "exercise 'c': expression 'S / (1 - q)': unknown variable 'q' at position 11",
      "exercise 'd': solution must be a number (or, with variants, an expression)",
    ]);
  });
});

describe('lesson parsing', () => {
  it('finds every kind of broken reference', () => {
    const md = '# T\n\n{{scenario missing}}\n{{exercise gone}}\n{{ scenario Bad_Id }}\n';
    const { errors } = parseLesson('x', md, [{ id: 'a', title: 't', description: 'd', seed: 1 }],
      [{ id: 'e', title: 't', prompt: 'p', explanation: 'x', hint: 'h', kind: 'numeric', solution: 1, check: { metric: 'm', scenario: 'zzz' } }]);
    expect(errors).toEqual([
      "scenario 'a': needs exactly one of \"experiment\" or \"live\"",
      "exercise 'e': a numeric exercise needs a tolerance {\"rel\": r} or {\"abs\": a}",
      "exercise 'e': check names scenario 'zzz', which is not an experiment scenario",
      "lesson.md line 3: no scenario 'missing' in scenarios.json",
      "lesson.md line 4: no exercise 'gone' in exercises.json",
      "lesson.md line 5: malformed directive '{{ scenario Bad_Id }}'",
    ]);
  });

  it('checks a devices live scenario\'s view and fields', () => {
    const sc = (live: unknown) => [{ id: 'a', title: 't', description: 'd', seed: 1, live }];
    const errs = (lab: string, live: unknown) => parseLesson(lab, '# T\n', sc(live), []).errors;
    expect(errs('devices', { view: 'flash', profile: 'intel-x25e', blocks: 64, overprovision: 0.1, workload: 'semi-random', streams: 8 })).toEqual([]);
    expect(errs('devices', { view: 'disk', rate_per_s: 0.05, scheduler: 'sstf', spin_down_s: 5 })).toEqual([]);
    expect(errs('devices', { profile: 'intel-x25m' })).toEqual(["scenario 'a': a devices live scenario needs \"view\": \"flash\" or \"disk\""]);
    expect(errs('devices', { view: 'flash', blocks: 200, workload: 'zigzag', rate_per_s: 5 })).toEqual([
      "scenario 'a': blocks must be an integer in [8, 128]",
      "scenario 'a': workload must be one of sequential, random, semi-random",
      "scenario 'a': unknown field 'rate_per_s' for the flash device (known: profile, blocks, pages_per_block, overprovision, workload, streams, queue_depth, prefill)",
    ]);
    expect(errs('devices', { view: 'disk', io_kb: 1.5 })).toEqual(["scenario 'a': io_kb must be an integer in [1, 1024]"]);
    expect(errs('devices', { view: 'flash', prefill: 'yes' })).toEqual(["scenario 'a': prefill must be true or false"]);
    expect(errs('queues', { view: 'disk' })).toEqual(["scenario 'a': \"view\" is a field of the devices and vector labs' live scenarios"]);
  });

  it('checks a FAWN-DS live scenario\'s fields and script', () => {
    const errs = (live: unknown) => parseLesson('fawnds', '# T\n', [{ id: 'a', title: 't', description: 'd', seed: 1, live }], []).errors;
    expect(errs({ stores: 2, lock_hold_us: 20, script: [{ op: 'put', key: 'x' }, { op: 'compact', store: 0 }] })).toEqual([]);
    expect(errs({ stores: 40, blocks: 3, script: [{ op: 'explode' }] })).toEqual([
      "scenario 'a': stores must be an integer in [1, 16]",
      "scenario 'a': unknown field 'blocks' for the FAWN-DS node (known: profile, capacity_mb, stores, index_bits, file_mb, lock_hold_us, page_cache_mb, value_bytes, load_rate_per_s, load_put_fraction, load_keys)",
      "scenario 'a': script operation 0 needs \"op\": one of put, get, delete, fill, delete-many, compact, split, merge, checkpoint, sync, crash, recover",
    ]);
    expect(errs({ script: 'fill' })).toEqual(["scenario 'a': script must be an array of operations"]);
  });

  it('checks a FAWN-KV live scenario\'s fields and its operations\' fields', () => {
    const errs = (live: unknown) => parseLesson('fawnkv', '# T\n', [{ id: 'a', title: 't', description: 'd', seed: 1, live }], []).errors;
    expect(errs({ nodes: 6, vids: 2, replication: 3, placement: 'even', zipf_s: 1.1, separate_queues: false,
      script: [{ op: 'put', key: 'x', value: 'y' }, { op: 'fail-node', id: 2 }, { op: 'add-node' }, { op: 'fill', count: 100 }, { op: 'check' }] })).toEqual([]);
    // The schema is the core's: heartbeat_ms is an integer there (250.5 used to pass this check and fail in the core).
    expect(errs({ heartbeat_ms: 250.5 })).toEqual(["scenario 'a': heartbeat_ms must be an integer in [10, 10000]"]);
    expect(errs({ nodes: 65, placement: 'random', stores: 2, script: [{ op: 'fail-node' }, { op: 'put', key: '' }, { op: 'crash' }, { op: 'fill', count: -1 }] })).toEqual([
      "scenario 'a': nodes must be an integer in [1, 64]",
      "scenario 'a': placement must be one of hashed, even",
      "scenario 'a': unknown field 'stores' for the FAWN-KV cluster (known: nodes, vids, replication, front_ends, placement, value_bytes, cache_entries, separate_queues, load_rate_per_s, load_put_fraction, load_keys, zipf_s, preload, heartbeat_ms)",
      "scenario 'a': script operation 0 (fail-node) needs \"id\": an integer in [0, 255]",
      "scenario 'a': script operation 1 (put) needs \"key\": a non-empty string",
      "scenario 'a': script operation 2 needs \"op\": one of put, get, add-node, remove-node, fail-node, fill, check",
      "scenario 'a': script operation 3 (fill) needs \"count\": an integer in [1, 100000]",
    ]);
  });

  it('judges answers with the tolerance and reads what students type', () => {
    expect(judgeNumeric(54, 50, { rel: 0.1 })).toBe(true);
    expect(judgeNumeric(56, 50, { rel: 0.1 })).toBe(false);
    expect(judgeNumeric(0.004, 0, { abs: 0.01 })).toBe(true);
    expect(parseAnswer(' 1,000 ')).toBe(1000);
    expect(parseAnswer('4.6e2')).toBe(460);
    expect(parseAnswer('fifty')).toBeNull();
    expect(parseAnswer('')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args.js';

describe('parseArgs', () => {
  const spec = { options: ['seed'], repeated: ['param'], flags: ['list'] };
  it('reads options, repeats, flags and positionals', () => {
    const a = parseArgs(['queues.mm1', '--param', 'a=1', '--param=b=2', '--seed', '7', '--list'], spec);
    expect(a.positionals).toEqual(['queues.mm1']);
    expect(a.repeated.get('param')).toEqual(['a=1', 'b=2']);
    expect(a.options.get('seed')).toBe('7');
    expect(a.flags.has('list')).toBe(true);
  });
  it('rejects what it does not know, with what it accepts', () => {
    expect(() => parseArgs(['--sed', '1'], spec)).toThrow(UsageError);
    expect(() => parseArgs(['--sed', '1'], spec)).toThrow("unknown option '--sed'; accepted: --seed, --param, --list");
    expect(() => parseArgs(['--seed'], spec)).toThrow('--seed needs a value');
    expect(() => parseArgs(['--seed', '1', '--seed', '2'], spec)).toThrow('--seed given twice');
    expect(() => parseArgs(['--list=yes'], spec)).toThrow('--list takes no value');
  });
});

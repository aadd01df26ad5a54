import { describe, expect, it } from 'vitest';
import { fmt, fmtTicks } from './format';

describe('fmt', () => {
  it('writes billions as B and trillions as T, as counts and money read', () => {
    expect(fmt(1e9)).toBe('1B');           // "1B queries/s"
    expect(fmt(2e9)).toBe('2B');           // "$2B"
    expect(fmt(1.7713e9, 4)).toBe('1.771B');
    expect(fmt(-2.5e9)).toBe('-2.5B');
    expect(fmt(1.5e12)).toBe('1.5T');
    expect(fmt(2.5e15)).toBe('2500T');
  });

  it('keeps the other magnitudes as they were, and picks the suffix after rounding', () => {
    expect([fmt(1234), fmt(12345), fmt(2.5e6), fmt(0.000123), fmt(0)]).toEqual(['1234', '12.3k', '2.5M', '0.000123', '0']);
    expect([fmt(999_999), fmt(999_999_999)]).toEqual(['1M', '1B']);
  });
});

describe('fmtTicks', () => {
  it('writes round thousands with k when another tick of the axis does', () => {
    expect(fmtTicks([500, 1000, 2000, 5000, 10000])).toEqual(['500', '1k', '2k', '5k', '10k']);
    expect(fmtTicks([1000, 2000, 5000])).toEqual(['1000', '2000', '5000']);
    expect(fmtTicks([1024, 4096, 16384])).toEqual(['1024', '4096', '16.4k']);  // powers of two keep their digits
  });
});

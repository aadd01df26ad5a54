// The ring view's colours: a distinct colour per node, faded each further cycle of ten.
import { describe, expect, it } from 'vitest';
import { nodeColour, nodeFill } from './ringPalette';

describe('node colours', () => {
  it('gives nodes distinct colours, fading each further cycle of ten', () => {
    const first = Array.from({ length: 10 }, (_, i) => nodeColour(i));
    expect(new Set(first).size).toBe(10);
    expect(nodeColour(10)).not.toBe(nodeColour(0));
    expect(nodeColour(10)).toMatch(/^#[0-9a-f]{6}$/);
    expect(nodeFill(3)).not.toBe(nodeColour(3));
  });
});

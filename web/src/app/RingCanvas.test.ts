// The ring host's keyboard: where the focus goes for each key.
import { describe, expect, it } from 'vitest';
import { moveFocus } from './RingCanvas';

describe('the ring by keyboard', () => {
  it('steps one VID with the arrows, wrapping, and a sixteenth with the page keys', () => {
    expect(moveFocus('ArrowRight', -1, 12)).toBe(0);
    expect(moveFocus('ArrowLeft', -1, 12)).toBe(11);
    expect(moveFocus('ArrowRight', 11, 12)).toBe(0);
    expect(moveFocus('ArrowUp', 0, 12)).toBe(11);
    expect(moveFocus('PageDown', 4090, 4096)).toBe(4090 + 256 - 4096);
    expect(moveFocus('PageUp', 3, 4096)).toBe(4096 - 253);
    expect([moveFocus('Home', 5, 12), moveFocus('End', 5, 12), moveFocus('x', 5, 12)]).toEqual([0, 11, null]);
  });
});

// @vitest-environment jsdom
// The map's keyboard: one tab stop, the arrow keys move between the nodes (Up/Down in a column,
// Left/Right across), each focus reported so the view reads the node out; the focused node's
// edges stay while the rest fade.
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { MapView } from './MapView';
import { srcmapSnapshot } from './srcmapFixtures';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
if (!('ResizeObserver' in globalThis)) {
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = class { observe() {} disconnect() {} };
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

function Host({ seen }: { seen: Array<string | null> }) {
  const [focused, setFocused] = useState<string | null>(null);
  return <MapView snap={srcmapSnapshot()} focused={focused} onFocusNode={(k) => { seen.push(k); setFocused(k); }} located={null} />;
}

const key = (el: Element, k: string) => act(() => { el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); });

describe('the map from the keyboard', () => {
  it('moves focus node to node and reports each', () => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const seen: Array<string | null> = [];
    root = createRoot(host);
    act(() => root!.render(<Host seen={seen} />));
    const v0 = host.querySelector<SVGGElement>('[data-testid="srcmap-volume-0"]')!;
    act(() => v0.focus());
    expect(seen.at(-1)).toBe('v0');
    key(v0, 'ArrowDown');
    expect(document.activeElement?.getAttribute('data-testid')).toBe('srcmap-volume-1');
    key(document.activeElement!, 'ArrowRight');
    expect(document.activeElement?.getAttribute('data-testid')).toBe('srcmap-disk-1');
    expect(seen.at(-1)).toBe('d1');
    // One tab stop: the focused node.
    expect([...host.querySelectorAll('[tabindex="0"]')].map((n) => n.getAttribute('data-testid'))).toEqual(['srcmap-disk-1']);
    // D1's edges (online, webmail and home-2 served there; replicas) stay; the rest fade.
    const faded = [...host.querySelectorAll('path[data-kind]')].filter((p) => p.getAttribute('stroke-opacity') === '0.12').length;
    expect(faded).toBeGreaterThan(0);
    expect(faded).toBeLessThan(host.querySelectorAll('path[data-kind]').length);
  });
});

// @vitest-environment jsdom
// The flash view from fixture snapshots (a tiny greedy FTL, deviceFixtures.ts): layout bounds
// for every geometry the session allows, the animator's timing, and what the SVG shows.
import { describe, expect, it } from 'vitest';
import type { FlashSnapshot } from './deviceTypes';
import { FixtureFtl, steadyFlash } from './deviceFixtures';
import { FLASH_MS, FLASH_W, FlashAnimator, MOVE_MS, flashLayout, pageCentre, pageCounts, renderFlashView, spareText, tileColumns } from './flashView';

function svgEl(): SVGSVGElement {
  document.body.innerHTML = '<svg id="f"></svg>';
  return document.getElementById('f') as unknown as SVGSVGElement;
}

function normalise(svg: string): string {
  return svg.replace(/\d+\.\d{4,}/g, (m) => String(Math.round(Number(m) * 1000) / 1000)).replace(/></g, '>\n<');
}

describe('flashLayout', () => {
  it('makes square-ish tiles', () => {
    expect([4, 8, 16, 32, 64].map(tileColumns)).toEqual([2, 4, 4, 8, 8]);
  });

  it.each([[8, 4, 1], [32, 16, 2], [64, 32, 20], [128, 64, 4], [128, 64, 1], [128, 4, 8]])(
    '%i blocks × %i pages on %i chips: every tile in the view, none overlapping, readable cells',
    (blocks, ppb, chips) => {
      const snap = new FixtureFtl(blocks, ppb, chips).snapshot();
      const l = flashLayout(snap);
      expect(l.tiles.size).toBe(blocks);
      expect(l.height).toBeLessThanOrEqual(700);
      // Cells stay visible even for the largest device (8192 pages), and large for small ones.
      expect(l.cell).toBeGreaterThanOrEqual(blocks * ppb > 4096 ? 4 : blocks * ppb >= 2048 ? 6 : 8);
      const boxes = [...l.tiles.values()].map((t) => ({ ...t, r: t.x + l.tileW, b: t.y + l.tileH + l.labelH }));
      for (const a of boxes) {
        expect(a.x).toBeGreaterThanOrEqual(0);
        expect(a.r).toBeLessThanOrEqual(FLASH_W);
        expect(a.b).toBeLessThanOrEqual(l.height);
      }
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]!;
          const b = boxes[j]!;
          expect(a.r <= b.x || b.r <= a.x || a.b <= b.y || b.b <= a.y, `tiles ${i} and ${j} overlap`).toBe(true);
        }
      }
      // Each block sits inside its chip's panel.
      for (const b of snap.blocks) {
        const t = l.tiles.get(b.id)!;
        const c = l.chips.find((x) => x.chip === b.chip)!;
        expect(t.x >= c.x && t.x + l.tileW <= c.x + c.w && t.y >= c.y && t.y + l.tileH <= c.y + c.h).toBe(true);
      }
    },
  );

  it('puts the default device in large cells', () => {
    expect(flashLayout(new FixtureFtl(32, 16, 2).snapshot()).cell).toBeGreaterThanOrEqual(16);
  });

  it('centres pages inside their tile, in program order row by row', () => {
    const l = flashLayout(new FixtureFtl(32, 16, 2).snapshot());
    const t = l.tiles.get(5)!;
    expect(pageCentre(l, 5, 0)).toEqual({ x: t.x + l.cell / 2, y: t.y + l.cell / 2 });
    expect(pageCentre(l, 5, 5)).toEqual({ x: t.x + 1.5 * l.cell, y: t.y + 1.5 * l.cell });
    expect(pageCentre(l, 99, 0)).toBeUndefined();
  });
});

describe('FlashAnimator', () => {
  it('flies each collector copy from source to destination, then fades it', () => {
    const { ftl } = steadyFlash();
    const a = new FlashAnimator();
    let snap: FlashSnapshot;
    do {
      ftl.write(1);
      snap = ftl.snapshot();
    } while (snap.recent.moves.length === 0);
    const f0 = a.frame(snap, 1000);
    expect(f0.moves.length).toBe(Math.min(32, snap.recent.moves.length));
    const [fb, fp, tb, tp] = snap.recent.moves.at(-1)!;
    const m = f0.moves.at(-1)!;
    expect(m.from).toEqual(pageCentre(f0.layout, fb, fp));
    expect(m.to).toEqual(pageCentre(f0.layout, tb, tp));
    expect(m.progress).toBe(0);
    expect(m.opacity).toBe(1);
    expect(f0.flashes.map((x) => x.block)).toEqual(snap.recent.erased.slice(-6));

    const empty = ftl.snapshot();
    const half = a.frame(empty, 1000 + MOVE_MS * 0.35);
    expect(half.moves.at(-1)!.progress).toBeCloseTo(0.5, 6);
    expect(half.flashes[0]!.opacity).toBeCloseTo(1 - (MOVE_MS * 0.35) / FLASH_MS, 6);
    const late = a.frame(empty, 1000 + MOVE_MS * 0.85);
    expect(late.moves.at(-1)!.progress).toBe(1);
    expect(late.moves.at(-1)!.opacity).toBeCloseTo(0.5, 6);
    expect(a.frame(empty, 1000 + MOVE_MS + 1).moves).toEqual([]);
  });

  it('depends only on the snapshots and the wall times passed in', () => {
    const run = () => {
      const { ftl } = steadyFlash(16, 8, 1);
      const a = new FlashAnimator();
      const frames = [];
      for (let t = 0; t < 2000; t += 100) {
        ftl.write(3);
        frames.push(a.frame(ftl.snapshot(), t));
      }
      return JSON.stringify(frames.map((f) => [f.moves, f.flashes, f.writes]));
    };
    expect(run()).toBe(run());
  });

  it('forgets everything on reset', () => {
    const { ftl, snap } = steadyFlash();
    const a = new FlashAnimator();
    a.frame(snap, 0);
    a.reset();
    const f = a.frame(ftl.snapshot(), 1);
    expect([f.moves.length, f.flashes.length, f.writes.length]).toEqual([0, 0, 0]);
  });
});

describe('renderFlashView', () => {
  it('matches its snapshot', async () => {
    const { snap } = steadyFlash(8, 8, 2);
    const svg = svgEl();
    renderFlashView(svg, new FlashAnimator().frame(snap, 0), snap);
    await expect(normalise(svg.outerHTML)).toMatchFileSnapshot('./__snapshots__/flashView.svg');
  });

  it('draws every page in its state, each block with its wear and role, and a legend', () => {
    const { snap } = steadyFlash();
    const svg = svgEl();
    renderFlashView(svg, new FlashAnimator().frame(snap, 0), snap);
    expect(svg.querySelectorAll('g.block').length).toBe(32);
    const pages = [...svg.querySelectorAll('rect.page')];
    expect(pages.length).toBe(32 * 16);
    const counts = pageCounts(snap);
    expect(counts.invalid).toBeGreaterThan(0);
    expect(pages.filter((p) => p.getAttribute('data-s') === 'x').length).toBe(counts.invalid);
    expect(pages.filter((p) => p.getAttribute('data-s') === 'x').every((p) => p.getAttribute('fill') === 'url(#flash-invalid)')).toBe(true);
    expect(svg.getAttribute('data-invalid')).toBe(String(counts.invalid));
    const b7 = svg.querySelector('g.block[data-block="7"]')!;
    expect(b7.querySelector('text.erases')!.textContent).toBe(String(snap.blocks[7]!.erases));
    expect(svg.querySelectorAll('g.block[data-role="host"]').length).toBe(1);
    const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(['Flash: intel-x25m, page-mapped FTL', 'chip 0', 'chip 1', 'valid page',
      'invalid (stale) page', 'free page', 'GC victim (V)', 'GC page copy', 'times erased', 'open for host writes (H)', 'open for GC copies (GC)',
      'erasing (E), just erased', 'just written by the host', "32 erase blocks × 16 pages of 4 KB on 2 chips · 384 logical pages (25% spare + each chip's reserve)"]));
    expect(svg.querySelectorAll('pattern#flash-invalid').length).toBe(1);
  });

  it('labels the spare from the configured overprovision, not from the pages drawn', () => {
    // The lab's default device: overprovision 0.25 over the logical pages, and each chip's
    // reserve blocks too, so 40% of the pages drawn are not logical pages.
    const snap = { overprovision: 0.25, logical_pages: 307, pages_per_block: 16, blocks: Array.from({ length: 32 }, () => steadyFlash().snap.blocks[0]!) };
    expect(spareText(snap)).toBe("25% spare + each chip's reserve");
    expect(spareText({ ...snap, overprovision: 0.05 })).toBe("5% spare + each chip's reserve");
    expect(spareText({ ...snap, overprovision: null, logical_pages: 384 })).toBe('25% of pages kept for update and erase blocks');
  });

  it('marks the victim, animates copies and erases, and redraws only blocks that changed', () => {
    const { ftl } = steadyFlash();
    const a = new FlashAnimator();
    const svg = svgEl();
    let snap: FlashSnapshot;
    do {
      ftl.write(1);
      snap = ftl.snapshot();
    } while (snap.recent.moves.length === 0);
    snap = { ...snap, gc: { active: true, victim: snap.recent.moves[0]![0] } };
    const frame = a.frame(snap, 0);
    renderFlashView(svg, frame, snap);
    expect(svg.querySelector('g.block[data-role="victim"]')!.getAttribute('data-block')).toBe(String(snap.gc.victim));
    expect(svg.querySelector('text.gc-status')!.textContent).toBe(`GC running · victim block ${snap.gc.victim}`);
    expect(svg.querySelectorAll('g.gc-move').length).toBe(frame.moves.length);
    expect(svg.querySelectorAll('rect.erase-flash').length).toBe(Math.min(6, snap.recent.erased.length));

    const untouched = snap.blocks.find((b) => b.role === 'full' && b.id !== snap.gc.victim)!;
    const before = svg.querySelector(`g.block[data-block="${untouched.id}"] rect.page`);
    const next = { ...ftl.snapshot(), gc: { active: false, victim: null } };
    renderFlashView(svg, a.frame(next, MOVE_MS * 2), next);
    expect(svg.querySelector(`g.block[data-block="${untouched.id}"] rect.page`)).toBe(before);
    expect(svg.querySelectorAll('g.gc-move').length).toBe(0);
    expect(svg.querySelector('text.gc-status')!.textContent).toBe('GC idle');
    expect(svg.querySelectorAll('g.static').length).toBe(1);
  });
});

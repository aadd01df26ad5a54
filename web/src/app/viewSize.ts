/**
 * How big a lab's views draw: the width a canvas lays out at (its container's, down to a
 * phone's), the zoom presentation mode adds (canvases lay out narrower and are shown stretched
 * to the full width, so their text grows), and the experiment charts' size and text scale.
 * Presentation mode is the `present` class on the lab's <main> (LabPage sets it from the URL).
 */
import { createContext, useContext, useEffect, type RefObject } from 'react';

/** The narrowest layout a canvas takes (a 390 px phone leaves about 330 px inside a panel). */
export const MIN_CANVAS_WIDTH = 280;

/** Presentation mode's zoom of canvas views (their 11–13 px text shows at 15–18 px). */
export const PRESENT_ZOOM = 1.4;

/** Chart text scale in presentation mode: the smallest chart text (11 px tick labels) at 16.5 px. */
export const PRESENT_CHART_TEXT = 1.5;

/** Whether an element sits in a lab shown in presentation mode. */
export function inPresentation(el: Element | null): boolean {
  return Boolean(el?.closest('.present'));
}

/**
 * The width (CSS px) a canvas inside `el` lays out at: the container's width, at least
 * `min`, at most `max`; in presentation mode, that divided by PRESENT_ZOOM (the stylesheet
 * stretches the canvas back to the full width).
 */
export function canvasWidth(el: HTMLElement | null, fallback: number, min = MIN_CANVAS_WIDTH, max = Infinity): number {
  const w = el?.clientWidth || fallback;
  const zoomed = inPresentation(el) ? w / PRESENT_ZOOM : w;
  return Math.floor(Math.min(max, Math.max(min, zoomed)));
}

/** A pointer's position on a canvas in its layout's CSS pixels (the canvas may be shown scaled). */
export function canvasPoint(canvas: HTMLCanvasElement, layoutWidth: number, clientX: number, clientY: number): [number, number] {
  const rect = canvas.getBoundingClientRect();
  const scale = rect.width > 0 ? layoutWidth / rect.width : 1;
  return [(clientX - rect.left) * scale, (clientY - rect.top) * scale];
}

/** An experiment chart's drawing size for a figure `width` px wide (text scale 1.5 in presentation). */
export function chartSize(width: number, present: boolean): { width: number; height: number; text: number } {
  const w = Math.max(280, Math.floor(width));
  if (present) return { width: w, height: Math.round(Math.min(560, Math.max(360, w * 0.5))), text: PRESENT_CHART_TEXT };
  // A phone's chart stacks its legend over the plot: it gets more height than its width alone would.
  return { width: w, height: Math.round(Math.min(400, Math.max(w < 480 ? 370 : 300, w * 0.62))), text: 1 };
}

/** Presentation mode, for components that change how they draw in it (the charts). */
export const PresentContext = createContext(false);

export function usePresent(): boolean {
  return useContext(PresentContext);
}

/** Sets `dirty` whenever `el` changes size, so a canvas painted from a frame loop repaints at its new width. */
export function useDirtyOnResize(el: RefObject<HTMLElement | null>, dirty: { current: boolean }): void {
  useEffect(() => {
    const ro = new ResizeObserver(() => (dirty.current = true));
    if (el.current) ro.observe(el.current);
    return () => ro.disconnect();
  }, [el, dirty]);
}

/**
 * The guided tour's panel: "Step 3 of 9", previous / next, the step's scenario (what to watch)
 * and the lesson's text for it. The page loads each step's scenario into its view (LabPage);
 * the arrow keys (and, in presentation mode, Page Up / Page Down, which slide clickers send)
 * move between steps unless a control that uses them has the focus.
 */
import { useEffect, useRef } from 'react';
import type { GuideStep } from '../model/guide';
import { Markdown } from './Markdown';

/** Whether a key press belongs to the focused element (a field, a tab list, a canvas or chart) rather than the tour. */
function ownedByTarget(t: EventTarget | null): boolean {
  if (!(t instanceof Element)) return false;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return true;
  if (t instanceof HTMLCanvasElement || t.closest('svg, [role="tablist"], [contenteditable="true"]')) return true;
  return false;
}

/** Whether the tour's panel sits beside the views (the page is two columns wide). */
function besideTheView(): boolean {
  return typeof window.matchMedia !== 'function' || window.matchMedia('(min-width: 1101px)').matches;
}

export function GuidePanel({ steps, step, onGo, onEnd, present }: {
  steps: GuideStep[];
  step: GuideStep;
  onGo: (n: number) => void;
  onEnd: () => void;
  present: boolean;
}) {
  const n = step.number;
  const last = steps.length;
  const go = useRef(onGo);
  go.current = onGo;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented || ownedByTarget(e.target)) return;
      const back = e.key === 'ArrowLeft' || (present && e.key === 'PageUp');
      const fwd = e.key === 'ArrowRight' || (present && e.key === 'PageDown');
      if (back && n > 1) go.current(n - 1);
      else if (fwd && n < last) go.current(n + 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [n, last, present]);

  const s = step.scenario;
  return (
    <section className="guide panel" aria-labelledby="guide-heading" data-step={n}>
      <div className="guide-nav" role="group" aria-label="Guided tour">
        <button type="button" onClick={() => onGo(n - 1)} disabled={n <= 1} aria-keyshortcuts="ArrowLeft">← Previous</button>
        <span className="guide-count" aria-live="polite" data-testid="guide-count">Step {n} of {last}</span>
        <button type="button" className="primary" onClick={() => onGo(n + 1)} disabled={n >= last} aria-keyshortcuts="ArrowRight">Next →</button>
        <button type="button" className="link" onClick={onEnd}>End the tour</button>
      </div>
      <h2 id="guide-heading">{s.title}</h2>
      {step.heading && <p className="muted small guide-from">From the lesson: <em>{step.heading}</em></p>}
      <div className="guide-watch">
        <Markdown text={s.description} />
      </div>
      {/* Open beside the view on a wide screen; closed on a phone (the view is below) and when presenting. */}
      <details className="guide-text" open={!present && besideTheView()}>
        <summary>The lesson’s text for this step</summary>
        <Markdown text={step.text} />
      </details>
      <p className="muted small">
        {s.experiment ? 'This step set up the experiment panel: press Run there.' : 'This step loaded its scenario into the live view.'} Keys: ← → move
        between steps.
      </p>
    </section>
  );
}

/**
 * A lab: the lesson beside the live view and the experiment panel, under a bar with the lab's
 * name and its modes. Everything worth sharing lives in the URL (model/scenario.ts,
 * LabUrlState): the experiment (?exp=...&seed=...&<param>=..., run when a link is opened), the
 * lesson scenario last loaded (?scenario=), the guided tour's step (?step=), presentation mode
 * (?present=1) and the live-view fields the user changed (?live.<field>=). Opening a link sets
 * the page up as it was: the same step, scenario and live configuration.
 */
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { guideSteps, stepAt } from '../model/guide';
import type { LessonScenario } from '../model/lessons';
import {
  DEFAULT_SEED, labStateFromSearch, labStateToSearch, liveFromUrl, liveTextAfterEdit, scenarioFromValues,
  type LabUrlState, type Scenario,
} from '../model/scenario';
import { useCore } from './coreContext';
import { ExperimentPanel } from './ExperimentPanel';
import { GuidePanel } from './GuidePanel';
import type { LiveRequest } from './labModule';
import type { LabInfo } from './labs';
import { LessonView } from './LessonView';
import { navigate } from './router';
import { PresentContext } from './viewSize';

/** Whether the page lays out in two columns (the guide or lesson beside the views). */
function wide(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 1101px)').matches;
}

export function LabPage({ lab, search }: { lab: LabInfo; search: string }) {
  const { core, error } = useCore();
  const experiments = useMemo(() => (core ? core.experiments().filter((e) => e.lab === lab.id) : []), [core, lab.id]);
  const steps = useMemo(() => guideSteps(lab.lesson), [lab.lesson]);
  const url = labStateFromSearch(search);
  const guided = url.step !== null ? stepAt(steps, url.step) : null;
  /** The lesson scenario the URL names: the guided step's, or `scenario=`. */
  const named = guided?.step?.scenario ?? (url.scenario !== null ? lab.lesson.scenarios.find((s) => s.id === url.scenario) : undefined);
  const scenarioError = url.scenario !== null && url.step === null && !named ? `scenario '${url.scenario}' in the link is not in this lesson` : null;

  const nonce = useRef(0);
  /** The live request the link describes, taken once when the page opens. */
  const [opened] = useState(() => {
    const base = named?.live;
    const { config, errors } = liveFromUrl(lab.id, base, url.live);
    const request = config && lab.live ? { config, seed: named?.live ? named.seed : 1, nonce: ++nonce.current } : null;
    return { request, errors, autoRun: url.experiment !== null && (!named || Boolean(named.experiment)) };
  });
  const [live, setLive] = useState<LiveRequest | null>(opened.request);
  /** The scenario whose live configuration the view last took (the base of the link's live fields). */
  const liveBase = useRef<LessonScenario | undefined>(named?.live ? named : undefined);
  /** The link's live fields that request took (the view reports its changes relative to them). */
  const liveText = useRef<Record<string, string>>(
    Object.fromEntries(Object.entries(url.live).filter(([k]) => !opened.errors.some((e) => e.startsWith(`live.${k}=`) || e.startsWith(`live.${k} `)))),
  );
  const applied = useRef<string | null>(named?.id ?? null);
  const [drawer, setDrawer] = useState(false);
  const experimentDefault: Scenario = { experiment: experiments[0]?.id ?? '', params: {}, seed: DEFAULT_SEED };
  const scenario: Scenario = url.experiment ?? experimentDefault;

  /** Rewrites the URL from the current one with `patch` over it. */
  const write = (patch: Partial<LabUrlState>, opts: { push?: boolean } = {}) => {
    const cur = labStateFromSearch(window.location.search);
    const next = { ...cur, ...patch };
    const info = experiments.find((e) => e.id === next.experiment?.experiment);
    navigate(`/labs/${lab.id}${labStateToSearch(next, info)}`, { replace: !opts.push });
  };

  const setScenario = (s: Scenario, opts: { push?: boolean } = {}) => write({ experiment: s }, opts);

  /** Sets the views up for a lesson scenario (the experiment panel's part goes through the URL). */
  const apply = (s: LessonScenario) => {
    applied.current = s.id;
    if (s.live && lab.live) {
      liveBase.current = s;
      liveText.current = {};
      setLive({ config: { ...s.live }, seed: s.seed, nonce: ++nonce.current });
    }
  };

  const scrollTo = (id: string) => document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });

  const loadScenario = (s: LessonScenario) => {
    write({ scenario: s.id, step: null, live: {}, ...(s.experiment ? { experiment: scenarioFromValues(s.experiment, s.params ?? {}, s.seed) } : {}) }, { push: true });
    apply(s);
    setDrawer(false);
    scrollTo(s.experiment ? 'exp-heading' : 'live-heading');
  };

  const goToStep = (n: number) => {
    const { step } = stepAt(steps, n);
    if (!step) return;
    const s = step.scenario;
    write({ step: step.number, scenario: null, live: {}, ...(s.experiment ? { experiment: scenarioFromValues(s.experiment, s.params ?? {}, s.seed) } : {}) }, { push: true });
    apply(s);
    if (wide()) scrollTo(s.experiment ? 'exp-heading' : 'live-heading');
  };

  // Back and forward through the history: set the views up for the scenario the URL now names.
  useEffect(() => {
    if (named && named.id !== applied.current) apply(named);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the scenario the URL names
  }, [named?.id]);

  const onLiveEdit = (changed: Record<string, unknown>) => {
    write({ live: liveTextAfterEdit(lab.id, liveBase.current?.live, liveText.current, changed) });
  };

  const present = url.present;
  const LiveView = lab.live?.Component;
  const touring = guided?.step ? guided.step : null;
  const problems = [...url.errors, ...opened.errors, ...(guided?.error ? [guided.error] : []), ...(scenarioError ? [scenarioError] : [])];
  const lessonHidden = present ? !drawer : touring !== null;

  const lessonRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!drawer) return;
    lessonRef.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') setDrawer(false); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawer]);

  const classes = ['lab', present ? 'present' : '', touring ? 'touring' : '', present && drawer ? 'drawer-open' : ''].filter(Boolean).join(' ');
  return (
    <PresentContext.Provider value={present}>
      <main id="main" className={classes}>
        <div className="lab-bar">
          {/* The page's h1 is the lesson's title; with the lesson hidden (touring, presenting) it is the lab's name. */}
          {lessonHidden ? <h1 className="lab-name">{lab.title}</h1> : <span className="lab-name">{lab.title}</span>}
          <button type="button" aria-pressed={touring !== null} disabled={steps.length === 0}
            onClick={() => (touring ? write({ step: null, scenario: touring.scenario.id }, { push: true }) : goToStep(1))}
            title="Step through the lesson's scenarios, each loaded into the view">
            Guided tour{steps.length > 0 ? ` (${steps.length} steps)` : ''}
          </button>
          <button type="button" aria-pressed={present} onClick={() => { setDrawer(false); write({ present: !present }, { push: true }); }}
            title="Presentation mode: the lesson in a drawer, the views full width, large chart text">
            Present
          </button>
          {present && (
            <button type="button" aria-expanded={drawer} aria-controls="lab-lesson" onClick={() => setDrawer(!drawer)}>
              {drawer ? 'Close the lesson' : 'Lesson'}
            </button>
          )}
          {/* One column (a phone): the lesson comes first, so say where the views are. */}
          <span className="lab-jumps">
            {lab.live && <a href="#live-heading" onClick={(e) => { e.preventDefault(); scrollTo('live-heading'); }}>Live view ↓</a>}
            {experiments.length > 0 && <a href="#exp-heading" onClick={(e) => { e.preventDefault(); scrollTo('exp-heading'); }}>Experiments ↓</a>}
          </span>
          <button type="button" className="link" onClick={() => void navigator.clipboard?.writeText(window.location.href)}
            title="Copy a link to this page as it is now: the step or scenario, the live view's settings, the experiment">
            Copy link
          </button>
        </div>
        {problems.length > 0 && (
          <div className="error lab-problems" role="alert">
            This link has problems; the rest of it applies: <ul>{problems.map((p) => <li key={p}>{p}</li>)}</ul>
          </div>
        )}
        <div ref={lessonRef} className="lab-lesson" id="lab-lesson" hidden={lessonHidden} role={present ? 'dialog' : undefined} tabIndex={present ? -1 : undefined}
          aria-label={present ? 'Lesson' : undefined}>
          {present && <button type="button" className="drawer-close" onClick={() => setDrawer(false)}>Close the lesson ✕</button>}
          <LessonView lesson={lab.lesson} errors={lab.lessonErrors} liveName={lab.live?.name ?? (() => 'live view')} onLoadScenario={loadScenario} />
        </div>
        {touring && (
          <div className="lab-guide">
            <GuidePanel steps={steps} step={touring} onGo={goToStep} present={present}
              onEnd={() => write({ step: null, scenario: touring.scenario.id }, { push: true })} />
          </div>
        )}
        <div className="lab-work">
          {error && <p className="error" role="alert">{error}</p>}
          {!core && !error && <p className="muted" role="status">Loading the simulation core…</p>}
          {core && LiveView && (
            <Suspense fallback={<p className="muted" role="status">Loading the live view…</p>}>
              <LiveView request={live} onEdit={onLiveEdit} />
            </Suspense>
          )}
          {core && experiments.length > 0 && (
            <ExperimentPanel core={core} experiments={experiments} scenario={scenario} onScenario={setScenario} autoRun={opened.autoRun} />
          )}
        </div>
      </main>
    </PresentContext.Provider>
  );
}

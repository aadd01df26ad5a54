/**
 * A lab: the lesson beside the live view and the experiment panel. The experiment scenario
 * lives in the URL (?exp=...&seed=...&<param>=...), so a link reproduces it; opening such a
 * link runs it.
 */
import { useMemo, useRef, useState } from 'react';
import { isDevicesLive, type LessonScenario, type LiveScenarioConfig } from '../model/lessons';
import type { FawndsLiveConfig } from '../model/fawndsTypes';
import type { FawnkvLiveConfig } from '../model/fawnkvTypes';
import type { LiveConfig } from '../model/types';
import { DEFAULT_SEED, scenarioFromSearch, scenarioFromValues, scenarioToSearch, type Scenario } from '../model/scenario';
import { useCore } from './coreContext';
import { ExperimentPanel } from './ExperimentPanel';
import type { LabInfo } from './labs';
import { LessonView } from './LessonView';
import { LiveDevices } from './LiveDevices';
import { LiveFawnds } from './LiveFawnds';
import { LiveFawnkv } from './LiveFawnkv';
import { LiveQueue, type LiveRequest } from './LiveQueue';
import { navigate } from './router';

export function LabPage({ lab, search }: { lab: LabInfo; search: string }) {
  const { core, error } = useCore();
  const experiments = useMemo(() => (core ? core.experiments().filter((e) => e.lab === lab.id) : []), [core, lab.id]);
  const fromUrl = scenarioFromSearch(search);
  const [autoRun] = useState(() => fromUrl !== null);
  const scenario: Scenario = fromUrl ?? { experiment: experiments[0]?.id ?? '', params: {}, seed: DEFAULT_SEED };
  const [live, setLive] = useState<LiveRequest<LiveScenarioConfig> | null>(null);
  const nonce = useRef(0);

  const setScenario = (s: Scenario, opts: { push?: boolean } = {}) => {
    const info = experiments.find((e) => e.id === s.experiment);
    navigate(`/labs/${lab.id}${scenarioToSearch(s, info)}`, { replace: !opts.push });
  };

  const loadScenario = (s: LessonScenario) => {
    if (s.experiment) {
      setScenario(scenarioFromValues(s.experiment, s.params ?? {}, s.seed), { push: true });
      document.getElementById('exp-heading')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    } else if (s.live) {
      setLive({ config: s.live, seed: s.seed, nonce: ++nonce.current });
      document.getElementById('live-heading')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  };

  return (
    <main id="main" className="lab">
      <div className="lab-lesson">
        <LessonView lesson={lab.lesson} errors={lab.lessonErrors} onLoadScenario={loadScenario} />
      </div>
      <div className="lab-work">
        {error && <p className="error" role="alert">{error}</p>}
        {!core && !error && <p className="muted" role="status">Loading the simulation core…</p>}
        {core && lab.live === 'queue' && <LiveQueue request={live && !isDevicesLive(live.config) ? (live as LiveRequest<LiveConfig>) : null} />}
        {core && lab.live === 'devices' && (
          <LiveDevices request={live && isDevicesLive(live.config) ? { ...live, config: live.config } : null} />
        )}
        {core && lab.live === 'fawnds' && <LiveFawnds request={live as LiveRequest<FawndsLiveConfig> | null} />}
        {core && lab.live === 'fawnkv' && <LiveFawnkv request={live as LiveRequest<FawnkvLiveConfig> | null} />}
        {core && experiments.length > 0 && (
          <ExperimentPanel core={core} experiments={experiments} scenario={scenario} onScenario={setScenario} autoRun={autoRun} />
        )}
      </div>
    </main>
  );
}

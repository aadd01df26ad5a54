/** The lesson text with its scenario cards and exercises in place. */
import type { Lesson, LessonScenario } from '../model/lessons';
import type { LiveConfigRecord } from './labModule';
import { ExerciseCard } from './ExerciseCard';
import { Markdown } from './Markdown';

/** What the lab calls the live view a configuration opens (LiveView.name). */
type LiveName = (config: LiveConfigRecord) => string;

/** A live field as the card shows it (a script as its number of operations). */
function liveField(k: string, v: unknown): string {
  return Array.isArray(v) ? `${k}: ${v.length} operation${v.length === 1 ? '' : 's'}` : `${k}=${String(v)}`;
}

/** The heading level for a card after `blocks`: one below the last Markdown heading before it (h2 … h6). */
export function headingLevelAfter(blocks: Lesson['blocks']): 2 | 3 | 4 | 5 | 6 {
  let level = 1;
  for (const b of blocks) {
    if (b.kind !== 'markdown') continue;
    for (const m of b.text.matchAll(/^(#{1,6})\s/gm)) level = m[1]!.length;
  }
  return Math.min(6, Math.max(2, level + 1)) as 2 | 3 | 4 | 5 | 6;
}

function ScenarioCard({ s, liveName, onLoad }: { s: LessonScenario; liveName: LiveName; onLoad: (s: LessonScenario) => void }) {
  const what = s.experiment
    ? `${s.experiment}${s.params && Object.keys(s.params).length ? ' · ' + Object.entries(s.params).map(([k, v]) => `${k}=${v}`).join(', ') : ''} · seed ${s.seed}`
    : `${liveName({ ...s.live })} · ${Object.entries(s.live ?? {}).filter(([k]) => k !== 'view').map(([k, v]) => liveField(k, v)).join(', ')}`;
  return (
    <aside className="scenario" id={`scenario-${s.id}`} data-scenario={s.id}>
      <div>
        <strong>{s.title}</strong>
        <Markdown text={s.description} />
        <small className="muted"><code>{what}</code></small>
      </div>
      <button type="button" onClick={() => onLoad(s)}>
        {s.experiment ? 'Load into the experiment panel' : `Load into the ${liveName({ ...s.live })}`}
      </button>
    </aside>
  );
}

export function LessonView({ lesson, errors, liveName, onLoadScenario }: {
  lesson: Lesson;
  errors: string[];
  /** The lab's live view's name for a configuration (none: the lab has no live view). */
  liveName: LiveName;
  onLoadScenario: (s: LessonScenario) => void;
}) {
  return (
    <article className="lesson" aria-label={`Lesson: ${lesson.title}`}>
      {errors.length > 0 && (
        <div className="error" role="alert">
          This lesson has problems: <ul>{errors.map((e) => <li key={e}>{e}</li>)}</ul>
        </div>
      )}
      {lesson.blocks.map((b, i) => {
        if (b.kind === 'markdown') return <Markdown key={i} text={b.text} />;
        if (b.kind === 'scenario') return <ScenarioCard key={i} s={b.scenario} liveName={liveName} onLoad={onLoadScenario} />;
        return <ExerciseCard key={i} exercise={b.exercise} lesson={lesson} level={headingLevelAfter(lesson.blocks.slice(0, i))} />;
      })}
    </article>
  );
}

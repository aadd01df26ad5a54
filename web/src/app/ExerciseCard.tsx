/**
 * An exercise: the student answers their variant (numbers picked by their student seed), the
 * page runs the exercise's check with those numbers (an experiment, in a worker of its own)
 * and compares the answer with the metric the model produced. A wrong answer gets the
 * exercise's hint, not the model's value.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { exerciseRun, feedback, instantiate, parseAnswer, type Exercise, type Feedback, type Lesson } from '../model/lessons';
import { ExperimentRunner } from '../model/runner';
import { fmt } from '../viz/format';
import { Markdown } from './Markdown';
import { useStudentSeed } from './studentSeed';

type State =
  | { kind: 'answering' }
  | { kind: 'checking'; progress: number }
  | { kind: 'judged'; feedback: Feedback; answer: number }
  | { kind: 'error'; message: string };

/** `level`: the heading level of its title, one below the lesson heading it sits under (default 4). */
export function ExerciseCard({ exercise: base, lesson, level = 4 }: { exercise: Exercise; lesson: Lesson; level?: 2 | 3 | 4 | 5 | 6 }) {
  const student = useStudentSeed();
  const exercise = useMemo(() => instantiate(base, student), [base, student]);
  const varies = base.variants !== undefined;
  const [text, setText] = useState('');
  const [choice, setChoice] = useState<number | null>(null);
  const [state, setState] = useState<State>({ kind: 'answering' });
  const [reveal, setReveal] = useState(false);
  const runner = useRef<ExperimentRunner | null>(null);
  useEffect(() => () => runner.current?.dispose(), []);
  useEffect(() => setState({ kind: 'answering' }), [exercise]);

  const answer = exercise.kind === 'choice' ? choice : parseAnswer(text);
  const check = async () => {
    if (answer === null) return;
    runner.current ??= new ExperimentRunner();
    const { experiment, params, seed } = exerciseRun(exercise, lesson);
    setState({ kind: 'checking', progress: 0 });
    const r = await runner.current.run(experiment, params, String(seed), (f) => setState({ kind: 'checking', progress: f })).promise;
    if (!('result' in r)) {
      setState({ kind: 'error', message: r.message });
      return;
    }
    const metric = r.result.metrics[exercise.check.metric];
    if (metric === undefined) {
      setState({ kind: 'error', message: `the run has no metric '${exercise.check.metric}'` });
      return;
    }
    setState({ kind: 'judged', feedback: feedback(exercise, answer, metric), answer });
  };

  const id = `ex-${exercise.id}`;
  const Heading = `h${level}` as const;
  const tol = exercise.tolerance;
  const tolText = tol ? (tol.rel !== undefined ? `within ±${fmt(tol.rel * 100)}%` : `within ±${fmt(tol.abs ?? 0)}`) : '';
  const judged = state.kind === 'judged' ? state : null;
  return (
    <section className="exercise" aria-labelledby={`${id}-title`} data-exercise={exercise.id}>
      <Heading id={`${id}-title`} className="exercise-title">Exercise: {exercise.title}</Heading>
      {varies && (
        <p className="muted small variant-line" data-student={student}>
          Your numbers: variant {student === 0 ? 'of the lesson' : `for student ${student}`} (add <code>?student=N</code> to the
          address for another)
        </p>
      )}
      <Markdown text={exercise.prompt} />
      <form onSubmit={(e) => { e.preventDefault(); void check(); }}>
        {exercise.kind === 'numeric' ? (
          <div className="answer-row">
            <label htmlFor={`${id}-answer`}>Your answer{exercise.unit ? ` (${exercise.unit})` : ''}</label>
            <input id={`${id}-answer`} type="text" inputMode="decimal" value={text} onChange={(e) => setText(e.target.value)}
              aria-invalid={text !== '' && answer === null} />
          </div>
        ) : (
          <fieldset>
            <legend>Choose one</legend>
            {exercise.options!.map((o) => (
              <label key={o.label} className="choice">
                <input type="radio" name={id} checked={choice === o.value} onChange={() => setChoice(o.value)} /> {o.label}
              </label>
            ))}
          </fieldset>
        )}
        <div className="answer-row">
          <button type="submit" disabled={answer === null || state.kind === 'checking'}>Check against the model</button>
          <button type="button" className="link" onClick={() => setReveal((v) => !v)}>{reveal ? 'Hide' : 'Show'} the worked answer</button>
          {text !== '' && answer === null && exercise.kind === 'numeric' && <span className="error">Type a number, e.g. 42 or 4.2e1.</span>}
        </div>
      </form>
      {state.kind === 'checking' && (
        <p role="status" className="muted">Running the model… {Math.round(state.progress * 100)}%</p>
      )}
      {state.kind === 'error' && <p role="alert" className="error">{state.message}</p>}
      {judged?.feedback.correct === true && (
        <p role="status" className="verdict pass">
          ✓ Correct.{' '}
          {exercise.kind === 'numeric'
            ? <>The model measured <strong>{fmt(judged.feedback.metric, 4)}{exercise.unit ? ` ${exercise.unit}` : ''}</strong>; your {fmt(judged.answer, 4)} is {tolText}.</>
            : <>The model agrees.</>}
        </p>
      )}
      {judged?.feedback.correct === false && (
        <div role="status" className="verdict fail hint">
          <p>
            ✗ Not quite{judged.feedback.direction ? <>: {fmt(judged.answer, 4)} is <strong>{judged.feedback.direction}</strong></> : ''}. Try again.
          </p>
          <Markdown className="md hint-text" text={`**Hint:** ${judged.feedback.hint}`} />
        </div>
      )}
      {(reveal || judged?.feedback.correct === true) && <Markdown className="md explanation" text={exercise.explanation} />}
    </section>
  );
}

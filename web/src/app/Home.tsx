/** Home: what fawnlab is, and the labs to open. */
import { Link } from './App';
import { LABS } from './labs';

export function Home() {
  return (
    <main id="main" className="page narrow">
      <h1>Why flash changed storage design — a lab</h1>
      <p className="lead">
        fawnlab runs the systems of the FAWN line of work — a log-structured store for flash, a
        replicated key-value ring of wimpy nodes, vector I/O — on emulated devices in your
        browser. Every number on a page comes from a simulation that ran here, in virtual time,
        from a seed you can share.
      </p>
      <h2>Labs</h2>
      <ul className="lab-list">
        {LABS.map((lab, i) => (
          <li key={lab.id} className="lab-card">
            <h3>
              <Link to={`/labs/${lab.id}`}>
                {i + 1}. {lab.title}
              </Link>
              <span className="muted"> — {lab.tagline}</span>
            </h3>
            <p>{lab.blurb}</p>
          </li>
        ))}
      </ul>
      <h2>Real cluster</h2>
      <p>
        <Link to="/cluster">The cluster page</Link> shows a FAWN-KV cluster of real processes on this machine — the live ring,
        per-node throughput and latency, a load generator, and buttons to kill, restart and add nodes. Start one
        with <code>npm run cluster -- --nodes 4 --replicas 3</code>.
      </p>
      <p className="muted small">
        Every experiment also runs headless: <code>npm run repro -- queues.mm1 --seed 7</code> prints the same
        result as this page, byte for byte.
      </p>
    </main>
  );
}

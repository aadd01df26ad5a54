/** The app shell: header, routes (home, one page per lab, loaded on demand), footer. */
import { lazy, Suspense } from 'react';
import { CoreProvider, preloadCore } from './coreContext';
import { Home } from './Home';
import { findLab } from './labs';
import { usePageTitle } from './pageTitle';
import { navigate, useLocation } from './router';

function Link({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <a
      href={to}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

export { Link };

// Each page's code is its own chunk, fetched when the page opens (the home page loads neither), as is
// each lab's live view (labModule.ts).
const ClusterPage = lazy(() => import('./ClusterPage').then((m) => ({ default: m.ClusterPage })));
const LabPage = lazy(() => {
  preloadCore().catch(() => {}); // a lab needs the core: fetch it beside the page's code (errors show on the page)
  return import('./LabPage').then((m) => ({ default: m.LabPage }));
});
const loadingPage = <main id="main" className="page narrow"><p className="muted" role="status">Loading the page…</p></main>;

export function App() {
  const { path, search } = useLocation();
  const m = /^\/labs\/([a-z0-9-]+)\/?$/.exec(path);
  const lab = m ? findLab(m[1]!) : undefined;
  lab?.live?.preload().catch(() => {}); // the lab's live view is its own chunk: fetch it beside the page's (errors show on the page)
  const cluster = path === '/cluster' || path === '/cluster/';
  const home = path === '/' || path === '';
  usePageTitle(home ? null : cluster ? 'Cluster' : lab ? lab.title : 'Not found');
  let page: React.ReactNode;
  if (path === '/' || path === '') page = <Home />;
  else if (path === '/cluster' || path === '/cluster/') page = <ClusterPage />;
  else if (lab) page = <LabPage key={lab.id} lab={lab} search={search} />;
  else page = (
    <main className="page narrow">
      <h1>Not found</h1>
      <p>There is no page at <code>{path}</code>. <Link to="/">Back to the labs</Link>.</p>
    </main>
  );
  return (
    <CoreProvider>
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <Link to="/"><span className="logo">fawnlab</span></Link>
        <span className="tagline">a lab for energy-efficient storage systems</span>
      </header>
      <Suspense fallback={loadingPage}>{page}</Suspense>
    </CoreProvider>
  );
}

// What each page costs to load, as the browser saw it: every response's encoded (on the wire)
// and decoded body bytes and its Content-Encoding, for the home page, the Cluster page and
// every lab, in a fresh browser context (empty cache) per page, with Accept-Encoding forced to
// identity, gzip and br, and as Chromium sends it. Asserts that the home and
// Cluster pages fetch no .wasm and no core glue, that a lab does, and that JS, CSS and WASM
// come compressed when the browser accepts br or gzip. The table is printed and written to
// e2e/test-results/transfer.md (docs/benchmarks.md, "Page weight", quotes it).
// `npm test` measures the home and Cluster pages (identity, br) and the first lab in every
// encoding, and the other labs as Chromium asks; FAWNLAB_TRANSFER_FULL=1 measures every page in
// every encoding (the table the docs quote).
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Browser, type Response } from '@playwright/test';
import { REPO, shot } from './helpers';

interface Fetched {
  url: string;
  encoding: string;
  wire: number;
  decoded: number;
}

interface PageCost {
  path: string;
  fetched: Fetched[];
}

/** Loads `path` in a fresh context and returns every same-origin response with its sizes. */
async function load(browser: Browser, path: string, ready: string, acceptEncoding?: string): Promise<PageCost> {
  const context = await browser.newContext(acceptEncoding ? { extraHTTPHeaders: { 'accept-encoding': acceptEncoding } } : {});
  const page = await context.newPage();
  const responses: Response[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/assets/') || r.request().resourceType() === 'document') responses.push(r);
  });
  await page.goto(path);
  await expect(page.locator(ready).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const fetched: Fetched[] = [];
  for (const r of responses) {
    const sizes = await r.request().sizes();
    const body = await r.body();
    fetched.push({ url: new URL(r.url()).pathname, encoding: (await r.headerValue('content-encoding')) ?? 'identity',
      wire: sizes.responseBodySize, decoded: body.length });
  }
  await context.close();
  return { path, fetched };
}

const kb = (n: number) => (n / 1000).toFixed(1);
const sum = (f: Fetched[], key: 'wire' | 'decoded') => f.reduce((a, x) => a + x[key], 0);
const isCoreGlue = (url: string) => /\/assets\/fawnlab_web-[^/]*\.(wasm|js)$/.test(url);

const FULL = process.env.FAWNLAB_TRANSFER_FULL === '1';

/** The Accept-Encodings a page is loaded with ('default': as Chromium sends it). */
function encodingsFor(path: string, labs: string[]): string[] {
  if (FULL || path === labs[0]) return ['identity', 'gzip', 'br', 'default'];
  return labs.includes(path) ? ['default'] : ['identity', 'br'];
}

/** The pages to measure and what shows once each is ready. */
const PAGES: Array<[string, string]> = [
  ['/', 'h1:has-text("a lab")'],
  ['/cluster', 'h1:has-text("Real cluster")'],
];

test('pages load only what they need, compressed', async ({ browser, page }) => {
  await page.goto('/');
  const labs = await page.locator('.lab-list a').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  expect(labs.length).toBeGreaterThan(0);
  // A lab is ready once its core has loaded: the experiment panel's heading or a live view shows.
  const pages = [...PAGES, ...labs.map((p): [string, string] => [p, '#exp-heading, #live-heading'])];

  const rows = [['page', 'requests', '.wasm', 'decoded KB', 'identity KB', 'gzip KB', 'br KB', 'Chromium as is']];
  const costs: Record<string, Record<string, PageCost>> = {};
  for (const [path, ready] of pages) {
    const byEncoding: Record<string, PageCost> = {};
    for (const enc of encodingsFor(path, labs)) byEncoding[enc] = await load(browser, path, ready, enc === 'default' ? undefined : enc);
    costs[path] = byEncoding;
    const f = (byEncoding.br ?? byEncoding.default)!.fetched;
    const wire = (enc: string) => (byEncoding[enc] ? kb(sum(byEncoding[enc]!.fetched, 'wire')) : '—');
    const asIs = byEncoding.default
      ? `${wire('default')} (${[...new Set(byEncoding.default.fetched.map((x) => x.encoding))].join(', ')})` : '—';
    rows.push([path, String(f.length), f.some((x) => x.url.endsWith('.wasm')) ? 'yes' : 'no', kb(sum(f, 'decoded')),
      wire('identity'), wire('gzip'), wire('br'), asIs]);
  }
  const table = rows.map((r) => `| ${r.join(' | ')} |`);
  table.splice(1, 0, `|${rows[0]!.map(() => ' --- ').join('|')}|`);
  const text = table.join('\n') + '\n';
  console.log(`\n${text}`);
  mkdirSync(resolve(REPO, 'e2e/test-results'), { recursive: true });
  writeFileSync(resolve(REPO, 'e2e/test-results/transfer.md'), text);
  writeFileSync(resolve(REPO, 'e2e/test-results/transfer.json'), JSON.stringify(costs, null, 1));

  // The home and Cluster pages need neither the WASM nor the core's glue JS.
  for (const path of ['/', '/cluster']) {
    for (const enc of ['identity', 'br']) {
      expect(costs[path]![enc]!.fetched.filter((x) => isCoreGlue(x.url)).map((x) => x.url), `${path} (${enc})`).toEqual([]);
    }
  }
  // A lab does load the core, and everything compressible comes compressed when accepted.
  for (const path of labs) {
    const byEncoding = costs[path]!;
    expect((byEncoding.br ?? byEncoding.default)!.fetched.some((x) => x.url.endsWith('.wasm')), path).toBe(true);
    for (const enc of ['gzip', 'br', 'default'].filter((e) => byEncoding[e])) {
      for (const x of byEncoding[enc]!.fetched.filter((y) => /\.(js|css|wasm)$/.test(y.url))) {
        // Chromium as it is accepts both (br first on the server's side); the others ask for one.
        expect(x.encoding, `${x.url} with Accept-Encoding: ${enc}`).toBe(enc === 'default' ? 'br' : enc);
        expect(x.wire, x.url).toBeLessThan(x.decoded);
      }
    }
    for (const x of byEncoding.identity?.fetched ?? []) expect(x.encoding, x.url).toBe('identity');
  }
});

test('the home page and a lab still look right after code splitting', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await shot(page, 'transfer-home');
  await page.locator('.lab-list a').first().click();
  await expect(page.locator('#exp-heading, #live-heading').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await shot(page, 'transfer-lab');
});

// The page's entry: picks the data path, wires the form, the organism type-ahead and the URL — every search is in
// the query string, opening a link runs it, back and forward work — and shows the home view, the results, or Identify
// or Fingerprint mode's (whose file or pasted peaks are the page's own, not the URL's).
import type { InfoAnswer, PeptideAnswer, SearchAnswer } from './answers.js';
import {
  chooseDataPath,
  pageDataset,
  PATH_SETTINGS,
  refusal,
  type Answer,
  type DataPath,
  type PathSetting,
} from './dataPath.js';
import { $ } from './dom.js';
import { FingerprintMode } from './fingerprint.js';
import { SearchForm } from './form.js';
import { IdentifyMode } from './identify.js';
import { datasetSpans, renderOverview, taglineOf } from './overview.js';
import { renderProteins, renderSearch } from './results.js';
import {
  FORM_DEFAULTS,
  isobaricPath,
  modifiedPeptideMass,
  pageQueryRefusal,
  peptidePath,
  queryOfState,
  searchPath,
  stateOfQuery,
  type SearchState,
} from './state.js';
import { TaxonPicker } from './taxa.js';

const results = $('#results');
const isobaric = $('#isobaric');
const home = $('#home');
const status = $('#status');
const pathSelect = $<HTMLSelectElement>('#data-path');

let dataPath: DataPath;
const ask = (path: string): Promise<Answer> => dataPath.ask(path);
const taxa = new TaxonPicker($('#taxon-input'), $('#taxon-options'), $('#taxon-chips'), ask);
const form = new SearchForm($<HTMLFormElement>('#search'), taxa);
const identify = new IdentifyMode(
  form,
  results,
  status,
  () => dataPath.kind,
  () => form.form.requestSubmit(),
);
const fingerprint = new FingerprintMode(
  form,
  results,
  status,
  () => dataPath.kind,
  ask,
  () => form.form.requestSubmit(),
);
/** The search shown (null: the home view), and a count that lets a later search supersede one still running. */
let current: SearchState | null = null;
let shown = 0;

function usePath(setting: PathSetting): void {
  pathSelect.value = setting;
  dataPath = chooseDataPath(setting);
  showPath();
}

/** Which path answers (an API that failed has fallen back to the browser). */
const showPath = () =>
  ($('#data-path-used').textContent = dataPath.kind === 'api' ? '— now the site’s API' : '— now this browser');

/** An error answer's message, next to the field it names. */
function refusedAnswer(answer: Answer, s: SearchState): void {
  let error: unknown;
  try {
    error = (JSON.parse(answer.text) as { error?: unknown }).error;
  } catch {
    // not the API's JSON: say the status
  }
  form.showError(typeof error === 'string' ? error : `the answer had status ${answer.status}`, s);
}

/** A query as a file name: every parameter kept, in characters any file system takes. */
const safeName = (query: string) =>
  query
    .replace(/^\/api\/v1\/peptide\?/, 'proteins-')
    .replace(/%2C|,/gi, '+')
    .replace(/[^A-Za-z0-9.@+]+/g, '-')
    .slice(0, 180);

/** A download's name: the search's whole query, its modifications and filters too. */
const fileName = (s: SearchState) => `peptides-${safeName(queryOfState(s))}`;

function titleOf(s: SearchState): string {
  if (s.mode === 'range') return `Peptides from ${s.mass1} to ${s.mass2} Da`;
  const of = s.precursor === 'mz' ? `m/z ${s.mz} at charge ${s.charge}` : `${s.mass} Da`;
  return `Peptides within ${s.tolerance} ${s.unit} of ${of}`;
}

/** A search's results, or false when it was refused or superseded. */
async function search(
  target: HTMLElement,
  path: string,
  s: SearchState,
  title: string,
  id: number,
  window?: [number, number],
): Promise<boolean> {
  const answer = await ask(path);
  if (id !== shown) return false;
  if (answer.status !== 200) return (refusedAnswer(answer, s), false);
  target.hidden = false;
  renderSearch(target, {
    title,
    answer: JSON.parse(answer.text) as SearchAnswer,
    text: answer.text,
    ms: answer.ms,
    window,
    fileName: fileName(s),
    onPage: (page) => {
      go({ ...s, page: String(page) });
      target.scrollIntoView({ block: 'start' });
    },
  });
  return true;
}

async function showPeptide(s: SearchState, id: number): Promise<void> {
  const answer = await ask(peptidePath(s));
  if (id !== shown) return;
  if (answer.status !== 200) return refusedAnswer(answer, s);
  results.hidden = false;
  renderProteins(results, JSON.parse(answer.text) as PeptideAnswer, answer.text, answer.ms, safeName(peptidePath(s)));
  const mass = modifiedPeptideMass(s)!;
  const modified = s.fixed.length ? ' with the fixed modifications' : '';
  await search(
    isobaric,
    isobaricPath(s, mass),
    s,
    `Peptides within ${s.tolerance} ${s.unit} of its mass (${mass.toFixed(6)} Da${modified})`,
    id,
  );
}

/** The tagline says how this dataset was digested, once its description has arrived. */
async function showTagline(): Promise<void> {
  const answer = await ask('/api/v1/info').catch(() => undefined);
  if (answer?.status === 200) $('#tagline').textContent = taglineOf(JSON.parse(answer.text) as InfoAnswer);
}

async function showHome(id: number): Promise<void> {
  const answer = await ask('/api/v1/info').catch(() => undefined);
  if (id !== shown) return;
  home.hidden = false;
  await renderOverview(
    home,
    answer?.status === 200 ? (JSON.parse(answer.text) as InfoAnswer) : undefined,
    datasetSpans(pageDataset),
  );
}

/** Shows what the page's URL asks for. */
async function show(): Promise<void> {
  const id = ++shown;
  const query = new URLSearchParams(location.search);
  const wrongNames = pageQueryRefusal(query);
  const asked = stateOfQuery(query);
  current = wrongNames ? null : asked;
  identify.cancel();
  fingerprint.cancel();
  form.set(asked ?? FORM_DEFAULTS);
  if (wrongNames) {
    // A link with a mistyped parameter is not run with it silently left out: said, as the API would.
    for (const section of [results, isobaric, home]) section.hidden = true;
    form.showError(wrongNames, asked ?? FORM_DEFAULTS);
    status.textContent = '';
    document.body.dataset.shown = String(id);
    results.setAttribute('aria-busy', 'false');
    return;
  }
  for (const section of [results, isobaric, home]) section.hidden = true;
  results.setAttribute('aria-busy', 'true');
  status.textContent = current ? 'Searching…' : '';
  document.title = current
    ? `${current.mode === 'peptide' ? current.peptide : current.mode === 'identify' ? 'Identify' : current.mode === 'fingerprint' ? 'Fingerprint' : titleOf(current)} — Digested peptides`
    : 'Digested peptides — peptide mass search';
  try {
    if (!current) await showHome(id);
    else if (current.mode === 'identify') await identify.show(current, () => id === shown);
    else if (current.mode === 'fingerprint') await fingerprint.show(current, () => id === shown);
    else if (current.mode === 'peptide') await showPeptide(current, id);
    else
      await search(
        results,
        searchPath(current),
        current,
        titleOf(current),
        id,
        current.mode === 'range' ? [Number(current.mass1), Number(current.mass2)] : undefined,
      );
    if (id === shown) status.textContent = '';
  } catch (e) {
    if (id === shown) status.textContent = `No answer: ${(e as Error).message}`;
  } finally {
    if (id === shown) {
      showPath();
      results.setAttribute('aria-busy', 'false');
      document.body.dataset.shown = String(id);
    }
  }
}

/** Puts a search (or the home view) in the URL, as a new history entry, and shows it. */
function go(s: SearchState | null): void {
  history.pushState(null, '', s ? `?${queryOfState(s)}` : location.pathname);
  void show();
}

// A search the form can tell is wrong (an empty field it needs, a value the parameter tables refuse) is refused
// where it was typed: no request, no history entry.
form.form.addEventListener('submit', (e) => {
  e.preventDefault();
  const s = form.read();
  const missing = form.missing(s);
  if (missing) return form.showError(missing.message, s, missing.field);
  if (s.mode === 'identify' || s.mode === 'fingerprint') {
    const refused = (s.mode === 'identify' ? identify : fingerprint).refusal(s);
    if (refused) return form.showError(refused.message, s, refused.field);
    // The same parameters again (another file, or the same run anew) are the same URL: no second history entry.
    if (location.search === `?${queryOfState(s)}`) return void show();
    return go(s);
  }
  const refused = refusal(s.mode === 'peptide' ? peptidePath(s) : searchPath(s));
  if (refused) return refusedAnswer(refused, s);
  go(s);
});
$<HTMLSelectElement>('#pageSize').addEventListener('change', (e) => {
  if (current && current.mode !== 'identify' && current.mode !== 'fingerprint')
    go({ ...current, page: '1', pageSize: (e.target as HTMLSelectElement).value });
});
document.addEventListener('click', (e) => {
  const link = (e.target as Element).closest?.('a');
  const href = link?.getAttribute('href');
  if (!link || !href || !(href.startsWith('?') || href === './') || e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault();
  history.pushState(null, '', href === './' ? location.pathname : href);
  void show();
});
window.addEventListener('popstate', () => void show());
pathSelect.addEventListener('change', () => {
  const setting = pathSelect.value as PathSetting;
  localStorage.setItem('dataPath', setting);
  usePath(setting);
  void show();
});

const saved = localStorage.getItem('dataPath') as PathSetting | null;
usePath(saved && PATH_SETTINGS.includes(saved) ? saved : 'auto');
// The tagline's question waits for the first answer: a site whose API is gone is then asked once, not twice.
void show().finally(() => void showTagline());

// Results as people read them: a search's candidates as a table (modified mass, ppm error, the isotope error when
// asked for, ProForma with its modifications marked, proteins with UniProt links, names, organisms and a reviewed
// badge), its chart, paging, the total and the time taken, and TSV/JSON downloads; the proteins of a peptide with
// their LCA.
import {
  candidatesOf,
  peptideTsv,
  searchTsv,
  withIsotopes,
  type Candidate,
  type PeptideAnswer,
  type ProteinRef,
  type SearchAnswer,
} from './answers.js';
import { barChart, histogram, ppmChart } from './charts.js';
import { fill, h } from './dom.js';

/** Proteins listed in a row before the rest fold under "N more". */
const SHOWN_PROTEINS = 3;

export const uniprot = (acc: string) => `https://www.uniprot.org/uniprotkb/${encodeURIComponent(acc)}`;
const number = (n: number) => n.toLocaleString('en-US');
/** The API's `HH:MM:SS.mmm` in milliseconds. */
const durationMs = (text: string) => text.split(':').reduce((total, part) => total * 60 + Number(part), 0) * 1000;
const milliseconds = (ms: number) => (ms < 10 ? ms.toFixed(1) : Math.round(ms).toString());

/** Offers `text` as a file download. */
function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** TSV and JSON download buttons: `name` is the files' name without its extension. */
export function downloads(name: string, json: string, tsv: () => string): HTMLElement {
  return h(
    'div',
    { class: 'actions' },
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        'data-download': 'tsv',
        onclick: () => download(`${name}.tsv`, tsv(), 'text/tab-separated-values'),
      },
      'Download TSV',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        'data-download': 'json',
        onclick: () => download(`${name}.json`, json, 'application/json'),
      },
      'Download JSON',
    ),
  );
}

/** ProForma text with its modifications (`<[Name]@C>`, `[Name]`, `[Name]^2?`) marked. */
function proforma(text: string): HTMLElement {
  const parts = text.split(/(<\[[^\]]*\]@[^>]*>|\[[^\]]*\](?:\^\d+)?\??-?)/);
  return h(
    'code',
    { class: 'proforma' },
    parts.map((part, i) => (i % 2 === 1 ? h('span', { class: 'mod' }, part) : part)),
  );
}

const reviewedBadge = (p: ProteinRef) =>
  p.reviewed ? h('span', { class: 'badge', title: 'Reviewed: UniProtKB/Swiss-Prot' }, 'reviewed') : null;

function proteinItem(p: ProteinRef): HTMLElement {
  return h(
    'li',
    {},
    h('a', { href: uniprot(p.acc), class: 'acc', target: '_blank', rel: 'noopener' }, p.acc),
    ' ',
    reviewedBadge(p),
    p.protein ? h('span', { class: 'protein' }, ` ${p.protein}`) : null,
    p.organism ? h('span', { class: 'organism' }, ` ${p.organism}`) : null,
  );
}

function proteinList(proteins: ProteinRef[]): HTMLElement {
  const folded = proteins.length > SHOWN_PROTEINS + 1;
  const shown = folded ? proteins.slice(0, SHOWN_PROTEINS) : proteins;
  return h(
    'div',
    {},
    h('ul', { class: 'proteins' }, shown.map(proteinItem)),
    folded
      ? h(
          'details',
          {},
          h('summary', {}, `${proteins.length - SHOWN_PROTEINS} more`),
          h('ul', { class: 'proteins' }, proteins.slice(SHOWN_PROTEINS).map(proteinItem)),
        )
      : null,
  );
}

function candidateRow(c: Candidate, groupStart: boolean, withPpm: boolean, isotopes: boolean): HTMLElement {
  return h(
    'tr',
    { class: groupStart ? 'group-start' : undefined },
    h('td', { class: 'num mass' }, c.mass.toFixed(6)),
    withPpm ? h('td', { class: 'num ppm' }, c.ppm === undefined ? '' : c.ppm.toFixed(2)) : null,
    isotopes ? h('td', { class: 'num isotope' }, String(c.isotopeError)) : null,
    h('td', {}, proforma(c.proforma)),
    h('td', {}, proteinList(c.accsTax)),
  );
}

export interface SearchView {
  title: string;
  answer: SearchAnswer;
  /** The answer's text (the JSON download), and the time it took to arrive. */
  text: string;
  ms: number;
  /** The window asked for, in Da (for the histogram of a window with no precursor). */
  window?: [number, number];
  fileName: string;
  onPage(page: number): void;
}

function pager(answer: SearchAnswer, onPage: (page: number) => void): HTMLElement | null {
  const pages = Math.max(1, Math.ceil(answer.totalResult / answer.pageSize));
  if (pages === 1 && answer.page === 1) return null;
  const go = (page: number, label: string, enabled: boolean) =>
    h('button', { type: 'button', class: 'secondary', disabled: !enabled, onclick: () => onPage(page) }, label);
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Result pages' },
    go(answer.page - 1, '← Previous', answer.page > 1),
    h('span', { class: 'page-of' }, `Page ${number(answer.page)} of ${number(pages)}`),
    go(answer.page + 1, 'Next →', answer.page < pages),
  );
}

/**
 * What the ppm error is: relative to the peptide's mass, while the window is relative to the precursor's, so an
 * error may pass the tolerance by a little.
 */
export const PPM_DEFINITION =
  'Error = (observed − theoretical) / theoretical × 10⁶, observed being the precursor’s neutral mass and theoretical the peptide’s modified mass. The window is ± the tolerance of the observed mass, so an error can pass the tolerance slightly (up to 1,001 ppm in a 1,000 ppm window).';

/** A search's results into `section`. */
export function renderSearch(section: HTMLElement, view: SearchView): void {
  const { answer } = view;
  const candidates = candidatesOf(answer);
  const withPpm = candidates.some(({ candidate }) => candidate.ppm !== undefined);
  const isotopes = withIsotopes(answer);
  const chart = h('div', { class: 'chart' });
  const groups = answer.result.length;
  section.dataset.view = 'search';
  fill(
    section,
    h('h2', {}, view.title),
    h(
      'p',
      { class: 'summary' },
      h('strong', { class: 'total' }, number(answer.totalResult)),
      ` mass group${answer.totalResult === 1 ? '' : 's'} in all · this page: ${number(groups)} group${groups === 1 ? '' : 's'}, ${number(candidates.length)} candidate${candidates.length === 1 ? '' : 's'} · `,
      h('span', { class: 'took' }, `${milliseconds(view.ms)} ms`),
      ` (the query ${milliseconds(durationMs(answer.duration))} ms)`,
    ),
    candidates.length ? downloads(view.fileName, view.text, () => searchTsv(answer)) : null,
    candidates.length
      ? h(
          'figure',
          {},
          chart,
          h(
            'figcaption',
            {},
            withPpm
              ? 'The candidates of this page: ppm error against modified mass.'
              : 'The candidates of this page across the window, by modified mass.',
          ),
        )
      : null,
    candidates.length && withPpm ? h('p', { class: 'ppm-note' }, PPM_DEFINITION) : null,
    candidates.length
      ? h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'results' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, 'Mass (Da)'),
                withPpm
                  ? h(
                      'th',
                      { scope: 'col', class: 'ppm-head', title: PPM_DEFINITION },
                      'Error (ppm)',
                      h('small', { class: 'definition' }, '(observed − theoretical) / theoretical'),
                    )
                  : null,
                isotopes ? h('th', { scope: 'col', class: 'isotope-head' }, 'Isotope error') : null,
                h('th', { scope: 'col' }, 'Peptide (ProForma)'),
                h('th', { scope: 'col' }, 'Proteins'),
              ),
            ),
            h(
              'tbody',
              {},
              answer.result.flatMap((group) =>
                Object.values(group)[0].map((c, i) => candidateRow(c, i === 0, withPpm, isotopes)),
              ),
            ),
          ),
        )
      : h(
          'p',
          { class: 'empty' },
          answer.page > 1 && answer.totalResult > 0 ? 'This page is past the last one.' : 'No peptide matches.',
        ),
    pager(answer, view.onPage),
  );
  if (!candidates.length) return;
  if (withPpm)
    ppmChart(
      chart,
      candidates.map(({ candidate }) => ({ mass: candidate.mass, ppm: candidate.ppm ?? 0 })),
    );
  else {
    const masses = candidates.map(({ candidate }) => candidate.mass);
    const [low, high] = view.window ?? [Math.min(...masses), Math.max(...masses)];
    barChart(chart, histogram(masses, low, high, 40), 'candidates', 'modified mass (Da)', 3);
  }
}

/** The proteins that contain a peptide, and the lowest common ancestor of their organisms, into `section`. */
export function renderProteins(
  section: HTMLElement,
  answer: PeptideAnswer,
  text: string,
  ms: number,
  fileName: string,
): void {
  const rows = answer.peptides.flatMap(({ seq, accsTax }) => accsTax.map((p) => ({ seq, p })));
  section.dataset.view = 'proteins';
  fill(
    section,
    h('h2', {}, `Proteins containing ${answer.sequence}`),
    h(
      'p',
      { class: 'summary' },
      h('strong', { class: 'total' }, number(rows.length)),
      ` protein${rows.length === 1 ? '' : 's'} · mass ${answer.mass.toFixed(6)} Da · `,
      answer.lca
        ? [
            'lowest common ancestor of their organisms: ',
            h('span', { class: 'lca' }, `${answer.lca.name} (${answer.lca.rank})`),
            ' · ',
          ]
        : null,
      h('span', { class: 'took' }, `${milliseconds(ms)} ms`),
    ),
    rows.length ? downloads(fileName, text, () => peptideTsv(answer)) : null,
    rows.length
      ? h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'proteins-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Peptide', 'Accession', 'Protein', 'Organism'].map((t) => h('th', { scope: 'col' }, t)),
              ),
            ),
            h(
              'tbody',
              {},
              rows.map(({ seq, p }) =>
                h(
                  'tr',
                  {},
                  h('td', {}, h('code', {}, seq)),
                  h(
                    'td',
                    {},
                    h('a', { href: uniprot(p.acc), class: 'acc', target: '_blank', rel: 'noopener' }, p.acc),
                    ' ',
                    reviewedBadge(p),
                  ),
                  h('td', {}, p.protein ?? ''),
                  h('td', {}, p.organism ?? ''),
                ),
              ),
            ),
          ),
        )
      : h('p', { class: 'empty' }, 'No stored protein contains this peptide (with these filters).'),
  );
}

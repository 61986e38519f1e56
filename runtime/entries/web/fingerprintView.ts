// Fingerprint mode's results, drawn from the answer's JSON alike on both data paths: a picker when the input held
// several peak lists, then for the list picked the proteins as listed (a row chosen by mouse or keyboard shows its
// panel: ./fingerprintDetails.ts), named once /api/v1/peptide has named them, the organisms, the peak list as sticks
// labelled with the peptides that explain them, and the TSV and JSON downloads of the whole answer.
import { choosable } from './choosable.js';
import type { Fingerprint, ProteinHit } from '../../core/fingerprint/fingerprint.js';
import { fill, h } from './dom.js';
import { expectText, listName, scoreText, type FingerprintAnswer } from './fingerprintAnswer.js';
import {
  accLink,
  headRow,
  number,
  organismTable,
  peakTable,
  plural,
  showProtein,
  SIGNIFICANT,
} from './fingerprintDetails.js';
import { coverageText } from './fingerprintCoverage.js';
import { peakListSvg } from './fingerprintPlot.js';
import { downloads } from './results.js';

/** A protein's name and organism, as /api/v1/peptide names them (when the dataset has them). */
export interface ProteinName {
  protein?: string;
  organism?: string;
}

export interface FingerprintView {
  answer: FingerprintAnswer;
  /** The answer's JSON text (its download), and its TSV. */
  text: string;
  tsv: () => string;
  fileName: string;
  /** Milliseconds the run took, and where it ran. */
  ms: number;
  path: 'api' | 'browser';
  /** The names of proteins, each given with a peptide of it (the answer holds accessions only). */
  names(proteins: readonly { accession: string; sequence: string }[]): Promise<Map<string, ProteinName>>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
const reviewedBadge = (hit: ProteinHit) =>
  hit.reviewed ? h('span', { class: 'badge', title: 'Reviewed: UniProtKB/Swiss-Prot' }, 'reviewed') : null;
/** Accessions of a same set shown in a table row before the rest are counted. */
const SAME_SHOWN = 3;

/** The proteins that explain exactly a hit's peaks, folded past a few. */
function sameSetNote(hit: ProteinHit): HTMLElement | null {
  const { sameSet } = hit;
  if (!sameSet.length) return null;
  return h(
    'small',
    { class: 'same-set', title: 'These explain exactly the same peaks: the list cannot tell them apart' },
    ' = ',
    sameSet.slice(0, SAME_SHOWN).map((acc, i) => [i ? ' ' : '', accLink(acc)]),
    sameSet.length > SAME_SHOWN ? ` +${sameSet.length - SAME_SHOWN} more` : '',
  );
}

function summary(list: Fingerprint, view: FingerprintView): HTMLElement[] {
  const searched = list.peaks.filter((p) => !p.error).length;
  const explained = list.peaks.filter((p) => p.explainedBy).length;
  const notes = [
    h(
      'p',
      { class: 'summary' },
      h('strong', { class: 'n-peaks' }, number(list.peaks.length)),
      ' peaks, ',
      h('strong', { class: 'n-explained' }, number(explained)),
      ' explained by the proteins listed; ',
      number(list.tested.proteins),
      ' proteins',
      list.tested.taxa === undefined ? '' : ` and ${number(list.tested.taxa)} organisms`,
      ' could match · ',
      h('span', { class: 'took' }, seconds(view.ms)),
      view.path === 'api' ? ' by the site’s API' : ' in this browser',
    ),
  ];
  if (searched < list.peaks.length) {
    const first = list.peaks.find((p) => p.error)!;
    notes.push(
      h(
        'p',
        { class: 'note fdr-note' },
        `${plural(list.peaks.length - searched, 'peak')} not searched (m/z ${first.mz}: ${first.error}); they count as peaks no protein can match.`,
      ),
    );
  }
  return notes;
}

function proteinTable(list: Fingerprint, choose: (row: HTMLTableRowElement) => void) {
  const n = list.peaks.length;
  const withCoverage = list.proteins.some((hit) => hit.coverage !== undefined);
  const body = h(
    'tbody',
    {},
    list.proteins.map((hit, i) =>
      h(
        'tr',
        {
          tabindex: 0,
          'data-accession': hit.accession,
          title: 'Show its peptides and peaks',
          class: hit.expect > SIGNIFICANT ? 'chance' : undefined,
        },
        h('td', { class: 'num rank' }, String(i + 1)),
        h('td', { class: 'accs' }, accLink(hit.accession), ' ', reviewedBadge(hit), sameSetNote(hit)),
        h('td', { class: 'protein-name' }),
        h('td', { class: 'organism', 'data-tax-id': hit.taxId }, `taxId ${hit.taxId}`),
        h('td', { class: 'num peptides', 'data-label': 'peptides' }, number(hit.peptides)),
        h('td', { class: 'num matched', 'data-label': 'peaks' }, `${hit.matched} of ${n}`),
        h('td', { class: 'num distinct', 'data-label': 'new' }, String(hit.distinct)),
        withCoverage
          ? h(
              'td',
              { class: 'num coverage', 'data-label': 'coverage' },
              hit.coverage === undefined ? '' : coverageText(hit.coverage),
            )
          : null,
        h('td', { class: 'num score', 'data-label': 'score' }, scoreText(hit.score)),
        h('td', { class: 'num expect', 'data-label': 'E' }, expectText(hit.expect)),
      ),
    ),
  );
  choosable(body, choose);
  return h(
    'div',
    { class: 'table-wrap psm-scroll' },
    h(
      'table',
      { class: 'results psms fp-proteins' },
      h(
        'caption',
        {},
        `${plural(list.proteins.length, 'protein')} listed one at a time, each the least likely to match by chance the peaks those above it leave unexplained (New: the peaks it adds); proteins explaining exactly its peaks follow its accession (=). Choose one to see its peptides. Score: −10·log10 of the chance that a protein with as many peptides matches at least so many of the ${number(n)} peaks at random; E-value: that chance × the ${number(list.tested.proteins)} proteins tested, greyed above ${SIGNIFICANT}.`,
      ),
      headRow([
        '#',
        'Accession',
        'Protein',
        'Organism',
        'Peptides',
        'Peaks matched',
        'New',
        ...(withCoverage ? ['Coverage'] : []),
        'Score',
        'E-value',
      ]),
      body,
    ),
  );
}

/** The list's results into `target`; the first protein is chosen. */
function renderList(target: HTMLElement, list: Fingerprint, view: FingerprintView): void {
  const panel = h('div', { class: 'spectrum-panel protein-panel', 'aria-live': 'polite' });
  const choose = (row: HTMLTableRowElement) => {
    for (const other of row.parentElement!.children) other.removeAttribute('aria-current');
    row.setAttribute('aria-current', 'true');
    showProtein(panel, list, list.proteins.find((p) => p.accession === row.dataset.accession)!);
  };
  const table = list.proteins.length
    ? proteinTable(list, choose)
    : h('p', { class: 'empty' }, 'No protein explains any of these peaks.');
  fill(
    target,
    summary(list, view),
    h('h3', {}, 'Proteins'),
    table,
    list.proteins.length ? panel : null,
    list.organisms
      ? [
          h('h3', {}, 'Organisms'),
          list.organisms.length
            ? organismTable(list.organisms, list.tested.taxa)
            : h('p', { class: 'empty' }, 'No organism explains any of these peaks on its own.'),
        ]
      : null,
    h('h3', {}, 'Peak list'),
    h(
      'figure',
      { class: 'fp-peaks' },
      peakListSvg(list, `Peak list ${list.title ?? ''}`.trim()),
      h(
        'figcaption',
        { class: 'legend' },
        h('span', { class: 'swatch explained' }),
        ' peaks explained, labelled with the peptide of the best-ranked protein that explains each ',
        h('span', { class: 'swatch peak' }),
        ` the others${list.peaks.some((p) => p.intensity !== undefined) ? '' : ' (the list gives no intensities: every peak is drawn full height)'}.`,
      ),
    ),
    peakTable(list),
  );
  const first = table.querySelector<HTMLTableRowElement>('tbody tr');
  if (first) choose(first);
  void nameProteins(target, list, view);
}

/** Fills in the listed proteins' names and organisms once they are known; marks the section when done. */
async function nameProteins(target: HTMLElement, list: Fingerprint, view: FingerprintView): Promise<void> {
  const asked = list.proteins.map((hit) => ({ accession: hit.accession, sequence: hit.matches[0]?.sequence ?? '' }));
  const names = await view.names(asked.filter((p) => p.sequence)).catch(() => new Map<string, ProteinName>());
  for (const row of target.querySelectorAll<HTMLTableRowElement>('table.fp-proteins tbody tr')) {
    const named = names.get(row.dataset.accession!);
    if (named?.protein) row.querySelector('.protein-name')!.textContent = named.protein;
    if (named?.organism) row.querySelector('.organism')!.textContent = named.organism;
  }
  target.dataset.named = 'true';
}

/** A fingerprint's results into `section`: the first list's, then the one the picker chooses. */
export function renderFingerprint(section: HTMLElement, title: string, view: FingerprintView): void {
  const { lists } = view.answer;
  const shown = h('div', { class: 'fp-list' });
  const picker =
    lists.length > 1
      ? h(
          'div',
          { class: 'field wide fp-picker' },
          h('label', { for: 'fp-list' }, `Peak list (${number(lists.length)} in the input)`),
          h(
            'select',
            {
              id: 'fp-list',
              onchange: (e: Event) => {
                const at = Number((e.target as HTMLSelectElement).value);
                shown.dataset.list = String(at);
                delete shown.dataset.named;
                renderList(shown, lists[at], view);
              },
            },
            lists.map((list, i) =>
              h('option', { value: i }, `${listName(list, i)} · ${plural(list.peaks.length, 'peak')}`),
            ),
          ),
        )
      : null;
  section.dataset.view = 'fingerprint';
  fill(section, h('h2', {}, title), picker, downloads(view.fileName, view.text, view.tsv), shown);
  shown.dataset.list = '0';
  if (lists.length) renderList(shown, lists[0], view);
  else fill(shown, h('p', { class: 'empty' }, 'The input holds no peak list.'));
}

// Fingerprint mode's parts of a list's results beside the protein table: the chosen protein's panel (what the proteins
// above it leave to it, its sequence coverage, its peak map, its peptides and unmatched peaks), the organisms ranked by score as bars with
// their best proteins, and every peak as a table. Each table greys what a match by chance would do as well.
import type { Fingerprint, ProteinHit, TaxonHit } from '../../core/fingerprint/fingerprint.js';
import { fill, h } from './dom.js';
import { explainedPeaks, expectText, scoreText } from './fingerprintAnswer.js';
import { coverageMap } from './fingerprintCoverage.js';
import { peakMapSvg } from './fingerprintPlot.js';
import { uniprot } from './results.js';

export const number = (n: number) => n.toLocaleString('en-US');
export const plural = (n: number, word: string) => `${number(n)} ${word}${n === 1 ? '' : 's'}`;
export const accLink = (accession: string) =>
  h('a', { href: uniprot(accession), class: 'acc', target: '_blank', rel: 'noopener' }, accession);
/** E-values above this are greyed: a match so good is not unusual among the contenders tested. */
export const SIGNIFICANT = 0.05;

export const headRow = (heads: readonly string[]) =>
  h(
    'thead',
    {},
    h(
      'tr',
      {},
      heads.map((t) => h('th', { scope: 'col' }, t)),
    ),
  );

/** What the proteins listed above a protein leave to it. */
function shareNote(hit: ProteinHit, first: boolean): string {
  if (first) return '';
  if (hit.distinct === hit.matched) return 'No protein above it explains any of its peaks. ';
  return `It adds ${plural(hit.distinct, 'peak')} to those of the proteins above it (score ${scoreText(hit.distinctScore)} on the peaks they leave). `;
}

/** The chosen protein's coverage map, peak map, peptides and unmatched peaks into `panel`. */
export function showProtein(panel: HTMLElement, list: Fingerprint, hit: ProteinHit): void {
  const explained = new Set(explainedPeaks(hit));
  const { peaks } = list;
  panel.dataset.accession = hit.accession;
  fill(
    panel,
    h(
      'h3',
      {},
      accLink(hit.accession),
      ': matched ',
      h('span', { class: 'n-matched' }, String(explained.size)),
      ` of ${plural(peaks.length, 'peak')}, score ${scoreText(hit.score)}, E-value ${expectText(hit.expect)}`,
    ),
    h(
      'p',
      { class: 'note' },
      shareNote(hit, hit === list.proteins[0]),
      hit.sameSet.length ? `Explaining exactly the same peaks: ${hit.sameSet.join(', ')}.` : '',
    ),
    coverageMap(hit),
    peakMapSvg(peaks, explained, `Peak map of ${hit.accession}`),
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'swatch explained' }),
      ` peaks its peptides explain `,
      h('span', { class: 'swatch peak' }),
      ' the others, along m/z.',
      hit.sequence === undefined
        ? ' The dataset holds no protein sequences (it was built without --sequences), so there is no residue coverage to show.'
        : '',
    ),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'results fp-matches' },
        headRow(['Peak m/z', 'Peptide (ProForma)', 'Peptide mass (Da)', 'Error (ppm)', 'Error (Da)']),
        h(
          'tbody',
          {},
          hit.matches.map((m) =>
            h(
              'tr',
              {},
              h('td', { class: 'num mz', 'data-label': 'm/z' }, peaks[m.peak].mz.toFixed(4)),
              h('td', {}, h('code', { class: 'proforma' }, m.proforma)),
              h('td', { class: 'num mass', 'data-label': 'Da' }, m.mass.toFixed(6)),
              h('td', { class: 'num ppm' }, m.errorPpm.toFixed(2)),
              h('td', { class: 'num', 'data-label': 'error Da' }, m.errorDa.toFixed(5)),
            ),
          ),
        ),
      ),
    ),
    h(
      'p',
      { class: 'unmatched' },
      hit.unmatched.length
        ? `Unmatched: ${plural(hit.unmatched.length, 'peak')} at m/z ${hit.unmatched.map((i) => peaks[i].mz.toFixed(4)).join(', ')}.`
        : 'Every peak matched.',
    ),
  );
}

export function organismTable(taxa: readonly TaxonHit[], tested: number | undefined) {
  const most = Math.max(1e-9, ...taxa.map((t) => t.score));
  return h(
    'figure',
    { class: 'fp-organisms' },
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'results' },
        headRow(['Organism', 'Score', 'Peaks matched', 'E-value', 'Peptides', 'Best proteins']),
        h(
          'tbody',
          {},
          taxa.map((t) =>
            h(
              'tr',
              { 'data-tax-id': t.taxId, class: t.expect > SIGNIFICANT ? 'chance' : undefined },
              h(
                'td',
                { class: 'taxon-name' },
                t.name || `taxId ${t.taxId}`,
                t.rank ? h('small', {}, ` ${t.rank}`) : null,
              ),
              h(
                'td',
                { class: 'score-bar' },
                h('span', { class: 'bar', style: `width: calc(${Math.max(0, t.score) / most} * (100% - 3.5rem))` }),
                h('span', { class: 'num score' }, scoreText(t.score)),
              ),
              h('td', { class: 'num matched', 'data-label': 'peaks' }, String(t.matched)),
              h('td', { class: 'num expect', 'data-label': 'E' }, expectText(t.expect)),
              h('td', { class: 'num', 'data-label': 'peptides' }, number(t.peptides)),
              h(
                'td',
                { class: 'accs' },
                t.proteins.map((acc, i) => [i ? ' ' : '', accLink(acc)]),
              ),
            ),
          ),
        ),
      ),
    ),
    h(
      'figcaption',
      {},
      `Organisms ranked by score: a peak counts for an organism when a peptide found only at or below it (the lowest common ancestor of the peptide's proteins lies there) explains the peak, and the chance weighs the peptides it alone holds. E-value: the chance × the ${tested === undefined ? '' : `${number(tested)} `}organisms tested, greyed above ${SIGNIFICANT}.`,
    ),
  );
}

/** Every peak of the list: as given, the mass searched, how crowded its window is, what explains it. */
export function peakTable(list: Fingerprint): HTMLElement {
  const withIntensity = list.peaks.some((p) => p.intensity !== undefined);
  return h(
    'details',
    { class: 'fp-peak-table' },
    h('summary', {}, `The ${plural(list.peaks.length, 'peak')} as a table`),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'results' },
        headRow([
          'm/z',
          ...(withIntensity ? ['Intensity'] : []),
          'Neutral mass (Da)',
          'Peptides in its window',
          'Explained by',
        ]),
        h(
          'tbody',
          {},
          list.peaks.map((peak) =>
            h(
              'tr',
              {},
              h('td', { class: 'num' }, peak.mz.toFixed(4)),
              withIntensity
                ? h('td', { class: 'num' }, peak.intensity === undefined ? '' : String(peak.intensity))
                : null,
              h('td', { class: 'num' }, peak.mass.toFixed(4)),
              h('td', { class: 'num' }, peak.error ? `not searched: ${peak.error}` : number(peak.inWindow)),
              h(
                'td',
                {},
                peak.explainedBy
                  ? [
                      h('code', { class: 'proforma' }, peak.explainedBy.proforma),
                      ' ',
                      accLink(peak.explainedBy.accession),
                    ]
                  : '',
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

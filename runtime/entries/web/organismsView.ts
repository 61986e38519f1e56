// The organisms of an identification: the taxa with most peptides as horizontal bars of the peptides within each,
// and the whole taxon table — or, when nothing passes the FDR, the organisms of the best targets, said to be a hint.
import type { TaxonRow } from '../../core/identify/organisms.js';
import { h } from './dom.js';
import { chartTaxa } from './identifyAnswer.js';

const number = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, word: string) => `${number(n)} ${word}${n === 1 ? '' : 's'}`;

/**
 * The taxa as bars of the peptides within each, then every row as a table; `passing`: they are the answer's taxon
 * table, not the best targets' organisms.
 */
export function taxaFigure(taxa: readonly TaxonRow[], passing: boolean): HTMLElement {
  const bars = chartTaxa(taxa);
  const most = Math.max(1, ...bars.map((t) => t.within));
  return h(
    'figure',
    { class: 'taxa-figure' },
    h(
      'ol',
      { class: 'taxon-bars', 'aria-label': 'Peptides per organism' },
      bars.map((t) =>
        h(
          'li',
          { 'data-tax-id': t.taxId },
          h(
            'span',
            { class: 'taxon-name' },
            t.name || `taxId ${t.taxId}`,
            t.rank ? h('small', {}, ` ${t.rank}`) : null,
          ),
          h('span', { class: 'bar', style: `width: ${(100 * t.within) / most}%` }),
          h('span', { class: 'num' }, number(t.within)),
        ),
      ),
    ),
    h(
      'figcaption',
      {},
      passing
        ? 'Peptides passing 1 % FDR within each taxon (each peptide counted at the lowest common ancestor of its proteins’ organisms and every taxon above): the species and genera with most.'
        : 'Nothing passes 1 % peptide FDR, so the sample has no taxon table: these are the organisms of the peptides in the table above (the lowest common ancestor of each one’s proteins), a hint only.',
    ),
    passing
      ? h(
          'details',
          {},
          h('summary', {}, `The taxon table (${plural(taxa.length, 'taxon')})`),
          h(
            'table',
            { class: 'results taxa-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Taxon', 'Rank', 'taxId', 'Within', 'Assigned'].map((t) => h('th', { scope: 'col' }, t)),
              ),
            ),
            h(
              'tbody',
              {},
              taxa.map((t) =>
                h(
                  'tr',
                  {},
                  h('td', {}, t.name),
                  h('td', {}, t.rank),
                  h('td', { class: 'num' }, String(t.taxId)),
                  h('td', { class: 'num' }, number(t.within)),
                  h('td', { class: 'num' }, number(t.assigned)),
                ),
              ),
            ),
          ),
        )
      : null,
  );
}

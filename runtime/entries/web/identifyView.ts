// Identify mode's results, drawn from the answer's JSON alike on both data paths: the counts at 1 % FDR, the PSM
// table (a row chosen by mouse or keyboard shows its annotated spectrum, read back from the file the page holds),
// the target and decoy score histograms, the organisms as bars and a table, and the TSV and JSON downloads.
import { choosable } from './choosable.js';
import { parseMassAnnotated } from '../../api/identifyColumns.js';
import { annotate, type AnnotationSettings } from '../../core/identify/annotate.js';
import type { Spectrum } from '../../core/match/mgf.js';
import { scoreChart } from './charts.js';
import { fill, h } from './dom.js';
import {
  BEST_SHOWN,
  identifyTsv,
  organismsOf,
  scoreHistograms,
  shownPsms,
  type IdentifyAnswer,
  type PsmRow,
} from './identifyAnswer.js';
import { taxaFigure } from './organismsView.js';
import { downloads, uniprot } from './results.js';
import { spectrumSvg } from './spectrumView.js';

export interface IdentifyView {
  answer: IdentifyAnswer;
  /** The answer's JSON text (its download). */
  text: string;
  fileName: string;
  /** Milliseconds the run took, and where it ran. */
  ms: number;
  path: 'api' | 'browser';
  /** How the spectra were scored (the run's topPeaks, fragment tolerance and highest fragment charge). */
  settings: AnnotationSettings;
  /** The spectrum a PSM's `scannr` names, read from the file. */
  spectrum(scannr: string): Promise<Spectrum | undefined>;
}

const number = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, word: string) => `${number(n)} ${word}${n === 1 ? '' : 's'}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
const SHOWN_PROTEINS = 3;

function summary(view: IdentifyView): HTMLElement[] {
  const { answer } = view;
  const { passing } = answer;
  const percent = `${answer.fdr * 100} %`;
  const notes: HTMLElement[] = [
    h(
      'p',
      { class: 'summary' },
      h('strong', { class: 'n-spectra' }, number(answer.spectra)),
      ` spectra, ${plural(answer.psms.length, 'PSM')}; at ${percent} FDR `,
      h('strong', { class: 'n-psms' }, number(passing.psms)),
      ' PSMs, ',
      h('strong', { class: 'n-peptides' }, number(passing.peptides)),
      ' peptides, ',
      h('strong', { class: 'n-proteins' }, number(passing.proteins)),
      ` proteins · `,
      h('span', { class: 'took' }, seconds(view.ms)),
      view.path === 'api' ? ' by the site’s API' : ' in this browser',
    ),
  ];
  // With (decoys + 1) / targets, fewer than 1 / fdr targets can never reach the threshold: said, so that a small
  // file's empty result is not read as a failed search.
  const targets = answer.psms.filter((p) => p.rank === 1 && p.label === 1).length;
  const needed = Math.round(1 / answer.fdr);
  if (passing.psms === 0)
    notes.push(
      h(
        'p',
        { class: 'note fdr-note' },
        `Nothing passes ${percent} FDR${targets < needed ? `: (decoys + 1) / targets needs about ${needed} targets before ${percent} can be reached, and this file has ${plural(targets, 'target PSM')}` : ''}. The table shows the ${Math.min(BEST_SHOWN, targets)} best target PSMs, which do not pass.`,
      ),
    );
  notes.push(
    h(
      'p',
      { class: 'note' },
      answer.rescored
        ? 'q-values rank PSMs by a linear discriminant fit to this file’s best PSMs, targets against decoys, as Sage rescores.'
        : 'q-values rank PSMs by hyperscore: too few targets or decoys to fit a discriminant on.',
    ),
  );
  const skipped = [
    answer.malformedCount ? `${plural(answer.malformedCount, 'malformed record')} skipped` : '',
    answer.refused.length
      ? `${plural(answer.refused.length, 'spectrum')} not searched (${answer.refused[0].error})`
      : '',
    answer.cutCandidates ? `${plural(answer.cutCandidates, 'candidate')} with too many placements cut` : '',
  ].filter(Boolean);
  if (skipped.length) notes.push(h('p', { class: 'note' }, `${skipped.join(' · ')}.`));
  return notes;
}

const q = (value: number) => (value >= 1 ? '1' : value.toFixed(4));

function proteinsCell(proteins: string): HTMLElement {
  const list = proteins.split(';');
  return h(
    'td',
    { class: 'accs' },
    list
      .slice(0, SHOWN_PROTEINS)
      .map((acc, i) => [
        i ? ' ' : '',
        h('a', { href: uniprot(acc), class: 'acc', target: '_blank', rel: 'noopener' }, acc),
      ]),
    list.length > SHOWN_PROTEINS ? h('small', {}, ` +${list.length - SHOWN_PROTEINS} more`) : null,
  );
}

function psmRow(psm: PsmRow): HTMLTableRowElement {
  return h(
    'tr',
    { tabindex: 0, 'data-psm-id': psm.psm_id, title: 'Show its annotated spectrum' },
    h('td', {}, h('code', { class: 'proforma' }, psm.proforma)),
    proteinsCell(psm.proteins),
    h('td', { class: 'organism' }, psm.organism),
    h('td', { class: 'num charge' }, `${psm.charge}+`),
    h('td', { class: 'num ppm' }, psm.precursor_ppm.toFixed(2)),
    h('td', { class: 'num hyperscore' }, psm.hyperscore.toFixed(2)),
    h('td', { class: 'num q' }, q(psm.spectrum_q)),
    h('td', { class: 'num q' }, q(psm.peptide_q)),
    h('td', { class: 'num q' }, q(psm.protein_q)),
    h('td', { class: 'scan' }, psm.scannr),
  );
}

const HEADS = ['Peptide (ProForma)', 'Proteins', 'Organism', 'z', 'ppm', 'Hyperscore', 'q spectrum', 'q peptide'];

function psmTable(psms: readonly PsmRow[], passing: boolean, choose: (row: HTMLTableRowElement) => void) {
  const body = h('tbody', {}, psms.map(psmRow));
  choosable(body, choose);
  return h(
    'div',
    { class: 'table-wrap psm-scroll' },
    h(
      'table',
      { class: `results psms${passing ? '' : ' not-passing'}` },
      h(
        'caption',
        {},
        passing
          ? `${plural(psms.length, 'PSM')} passing 1 % FDR (each spectrum’s best, best first); choose one to see its spectrum.`
          : `Not passing 1 % FDR: the ${psms.length} best target PSMs by hyperscore; choose one to see its spectrum.`,
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [...HEADS, 'q protein', 'Scan'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      body,
    ),
  );
}

/** The PSM's annotated spectrum into `panel`, from the file's peaks and the run's settings. */
async function showSpectrum(panel: HTMLElement, psm: PsmRow, view: IdentifyView): Promise<void> {
  panel.setAttribute('aria-busy', 'true');
  let spectrum: Spectrum | undefined;
  let problem = '';
  try {
    spectrum = await view.spectrum(psm.scannr);
  } catch (e) {
    problem = (e as Error).message;
  }
  const peptide = parseMassAnnotated(psm.peptide);
  if (panel.dataset.want !== String(psm.psm_id)) return; // another row was chosen meanwhile
  panel.setAttribute('aria-busy', 'false');
  const head = h(
    'h3',
    {},
    `Scan ${psm.scannr}: `,
    h('code', { class: 'proforma' }, psm.proforma),
    `, ${psm.charge}+, hyperscore ${psm.hyperscore.toFixed(2)}, ${psm.matched_peaks} ions matched`,
  );
  panel.dataset.psmId = String(psm.psm_id);
  if (!spectrum?.peaks || !peptide)
    return fill(
      panel,
      head,
      h('p', { class: 'empty' }, problem || `The file has no spectrum named ${psm.scannr} with peaks.`),
    );
  const annotation = annotate(
    spectrum.peaks,
    spectrum.mz,
    peptide.sequence,
    peptide.carried,
    psm.charge,
    view.settings,
  );
  fill(
    panel,
    head,
    spectrumSvg(annotation, peptide.sequence, `Annotated spectrum of scan ${psm.scannr}`),
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'swatch b' }),
      ' b ions ',
      h('span', { class: 'swatch y' }),
      ' y ions ',
      h('span', { class: 'swatch peak' }),
      ` the ${number(annotation.peaks.mz.length)} peaks scored (the ${view.settings.topPeaks} most intense, the precursor’s left out); fragment tolerance ${view.settings.fragmentTolerance.value} ${view.settings.fragmentTolerance.unit}.`,
    ),
  );
}

/** An identification's results into `section`; the first PSM's spectrum is shown. */
export function renderIdentification(section: HTMLElement, title: string, view: IdentifyView): void {
  const { answer } = view;
  const { psms, passing } = shownPsms(answer);
  const panel = h('div', { class: 'spectrum-panel', 'aria-live': 'polite' });
  const scores = h('div', { class: 'chart' });
  const choose = (row: HTMLTableRowElement) => {
    for (const other of row.parentElement!.children) other.removeAttribute('aria-current');
    row.setAttribute('aria-current', 'true');
    const psm = psms.find((p) => String(p.psm_id) === row.dataset.psmId)!;
    panel.dataset.want = String(psm.psm_id);
    void showSpectrum(panel, psm, view);
  };
  const table = psms.length ? psmTable(psms, passing, choose) : h('p', { class: 'empty' }, 'No target PSM.');
  const bins = scoreHistograms(answer);
  const taxa = passing ? answer.taxa : organismsOf(psms);
  section.dataset.view = 'identify';
  fill(
    section,
    h('h2', {}, title),
    summary(view),
    downloads(view.fileName, view.text, () => identifyTsv(answer)),
    table,
    psms.length ? panel : null,
    h('h3', {}, 'Scores'),
    h(
      'figure',
      { class: 'scores', 'data-targets': sum(bins.counts), 'data-decoys': sum(bins.decoys) },
      scores,
      h(
        'figcaption',
        {},
        h('span', { class: 'swatch target' }),
        ' targets ',
        h('span', { class: 'swatch decoy' }),
        ' decoys: the best hyperscore of each spectrum. Targets far above the decoys are identified.',
      ),
    ),
    h('h3', {}, 'Organisms'),
    taxa.length ? taxaFigure(taxa, passing) : h('p', { class: 'empty' }, 'No organism: no target PSM.'),
  );
  scoreChart(scores, bins);
  const first = table.querySelector<HTMLTableRowElement>('tbody tr');
  if (first) choose(first);
}

const sum = (counts: readonly number[]) => counts.reduce((a, b) => a + b, 0);

// The home view: what the dataset is (release, counts, build parameters, from /api/v1/info), its peptides per mass
// bin (from the shard index: each shard's peptide count spread over its mass span), and searches to try.
import type { OpenDataset } from '../../api/handler.js';
import { rangeEntries } from '../../core/range/search.js';
import type { InfoAnswer } from './answers.js';
import { barChart, type Bins } from './charts.js';
import { fill, h } from './dom.js';

/** A stretch of the mass axis holding `peptides` peptides (a shard, or an index page of shards), keys in 1e-4 Da. */
export interface MassSpan {
  firstKey: number;
  lastKey: number;
  peptides: number;
}

const KEYS_PER_DA = 10_000;
const NICE_WIDTHS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000];

/**
 * Peptides per bin of a round width (at most `maxBins` bins) over the spans, each span's peptides spread evenly over
 * its mass range (a span of one key falls in one bin). The counts add up to the spans' peptides, up to rounding.
 */
export function massBins(spans: readonly MassSpan[], maxBins = 80): Bins {
  if (spans.length === 0) return { starts: [], counts: [], width: 1 };
  const low = spans[0].firstKey / KEYS_PER_DA;
  const high = spans[spans.length - 1].lastKey / KEYS_PER_DA;
  const width =
    NICE_WIDTHS.find((w) => Math.floor(high / w) - Math.floor(low / w) + 1 <= maxBins) ?? NICE_WIDTHS.at(-1)!;
  const first = Math.floor(low / width);
  const counts = new Array<number>(Math.floor(high / width) - first + 1).fill(0);
  for (const s of spans) {
    const [a, b] = [s.firstKey / KEYS_PER_DA, s.lastKey / KEYS_PER_DA];
    if (b <= a) {
      counts[Math.floor(a / width) - first] += s.peptides;
      continue;
    }
    for (let bin = Math.floor(a / width); bin <= Math.floor(b / width); bin++) {
      const overlap = Math.min(b, (bin + 1) * width) - Math.max(a, bin * width);
      counts[bin - first] += (s.peptides * Math.max(0, overlap)) / (b - a);
    }
  }
  return { starts: counts.map((_, i) => (first + i) * width), counts: counts.map(Math.round), width };
}

/**
 * The dataset's mass spans: every shard, read from the index pages, unless there are so many pages (more than
 * `maxPages`, or a tree of several levels) that the root's entries do.
 */
export async function datasetSpans(open: OpenDataset, maxPages = 64): Promise<MassSpan[]> {
  const dataset = await open(new URL(location.href));
  const { manifest, index } = dataset;
  if (manifest.shards) return manifest.shards;
  if (index.levels > 1 || index.pageCount > maxPages) return manifest.shardIndex!.pages;
  return (await rangeEntries(dataset.index, 0, Number.MAX_SAFE_INTEGER)).map((located) => located.entry);
}

export const EXAMPLES: readonly [string, string][] = [
  [
    '?mz=650.3188&charge=2&tolerance=10&unit=ppm&fixed=Carbamidomethyl@C&variable=Oxidation@M',
    'A doubly charged precursor at m/z 650.3188, carbamidomethylated C, oxidised M allowed',
  ],
  ['?mass1=1000&mass2=1000.5', 'Every peptide from 1000 to 1000.5 Da'],
  ['?peptide=EDQLEPVTK', 'Which proteins contain EDQLEPVTK, and which peptides weigh the same'],
  ['?mass=1500&tolerance=20&unit=ppm&taxon=9606&reviewed=true', 'Human Swiss-Prot peptides within 20 ppm of 1500 Da'],
];

const number = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en-US'));

/** How the enzymes the build knows are named before "peptides". */
const DIGESTED: Record<string, string> = {
  trypsin: 'Tryptic',
  'trypsin/p': 'Tryptic (trypsin/P)',
  'lys-c': 'Lys-C',
  'lys-c/p': 'Lys-C (Lys-C/P)',
  'lys-n': 'Lys-N',
  'arg-c': 'Arg-C',
  'arg-c/p': 'Arg-C (Arg-C/P)',
  'asp-n': 'Asp-N',
  'glu-c': 'Glu-C',
  'glu-c/e': 'Glu-C (E only)',
  chymotrypsin: 'Chymotryptic',
  'chymotrypsin/p': 'Chymotryptic (chymotrypsin/P)',
  pepsina: 'Pepsin',
  cnbr: 'CNBr',
};

type Digestion = Pick<
  InfoAnswer['parameters'],
  'enzyme' | 'missedCleavages' | 'minLength' | 'maxLength' | 'specificity' | 'clipMet'
>;

/**
 * `trypsin, up to 2 missed cleavages, 6–50 residues` (one missed cleavage, or none, said so), with the specificity
 * when not full and the initiator Met when it was clipped.
 */
export function digestionText(p: Digestion): string {
  const missed =
    p.missedCleavages === 0
      ? 'no missed cleavages'
      : `up to ${p.missedCleavages} missed cleavage${p.missedCleavages === 1 ? '' : 's'}`;
  const cut = p.specificity === 'semi' ? ' semi-specific' : '';
  const met = p.clipMet ? ', initiator Met also removed' : '';
  if (p.specificity === 'none') return `every sub-sequence of ${p.minLength}–${p.maxLength} residues${met}`;
  return `${p.enzyme}${cut}, ${missed}, ${p.minLength}–${p.maxLength} residues${met}`;
}

/** The page's tagline, saying how the dataset was digested and of what. */
export function taglineOf(info: Pick<InfoAnswer, 'parameters' | 'release'>): string {
  const p = info.parameters;
  const of = typeof info.release?.name === 'string' ? info.release.name : 'UniProt';
  const enzyme = DIGESTED[p.enzyme.toLowerCase()] ?? `${p.enzyme}-digested`;
  const digested =
    p.specificity === 'none' ? 'Non-specific' : p.specificity === 'semi' ? `Semi-specific ${enzyme}` : enzyme;
  return `Which peptides weigh what your precursor weighs? ${digested} peptides of ${of} proteins (${digestionText(p)}), exact masses, Unimod modifications, NCBI organisms.`;
}

/** The home view into `section`; the chart follows when the shard index has been read (it is left out if it cannot be). */
export async function renderOverview(
  section: HTMLElement,
  info: InfoAnswer | undefined,
  spans: Promise<MassSpan[]>,
): Promise<void> {
  const chart = h('div', { class: 'chart' });
  const figure = h('figure', {}, chart, h('figcaption', {}, 'Distinct peptides per mass bin across the dataset.'));
  const t = info?.totals;
  const p = info?.parameters;
  const release = info?.release
    ? Object.entries(info.release)
        .filter(([k]) => ['name', 'date', 'url'].includes(k))
        .map(([, v]) => v)
        .join(' · ')
    : 'none recorded (built from the bundled sample)';
  fill(
    section,
    h('h2', {}, 'The dataset'),
    info
      ? h(
          'dl',
          { class: 'stats' },
          [
            ['Peptides', number(t?.peptides)],
            ['Proteins', number(t?.proteins)],
            ['Reviewed (Swiss-Prot)', number(t?.reviewedAccessions)],
            ['Mass groups', number(t?.massGroups)],
            ['Taxa', number(t?.taxonomyNodes)],
            ['Digestion', p ? digestionText(p) : '–'],
            ['Release', release],
            ['Version', `${info.datasetVersion} (format ${info.formatVersion}, ${info.compression})`],
          ].map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v))),
        )
      : h('p', { class: 'empty' }, 'The dataset could not be described.'),
    figure,
    h('h2', {}, 'Try'),
    h(
      'ul',
      { class: 'examples' },
      EXAMPLES.map(([href, text]) => h('li', {}, h('a', { href }, text))),
    ),
  );
  try {
    const bins = massBins(await spans);
    barChart(chart, bins, 'peptides', 'mass (Da)', 0, 200);
    figure.querySelector('figcaption')!.textContent = `Distinct peptides per ${bins.width} Da across the dataset.`;
  } catch {
    figure.remove();
  }
}

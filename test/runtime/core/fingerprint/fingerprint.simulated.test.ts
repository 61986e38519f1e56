// Tests runtime/core/fingerprint/fingerprint.ts on simulated MALDI peak lists of the bundled sample's real proteins:
// each protein (one with 16 to 60 peptides of 800–4000 Da, as a gel spot's) digested by the test reference (the
// dataset's own enzyme, missed cleavages and lengths), half of its peptides of 800–4000 Da weighed by the reference's residue table as [M+H]+ with noise within a third of the 50 ppm
// tolerance, and as many random peaks. The right protein (any accession of the same sequence) must be listed first
// in 95 % of single-protein lists, every protein of a mixture of two or three among the 5 listed in 95 % of
// mixtures — a listed protein standing for those explaining exactly its peaks (its sameSet), which the peaks cannot
// tell apart — and a species must rank first among organisms in 95 % of lists of its own peptides (those whose
// proteins' lowest common ancestor lies at or below it).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, type FingerprintQuery } from '../../../../runtime/core/fingerprint/fingerprint.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import type { AccessionTable } from '../../../../runtime/model/format.js';
import {
  bundledDataset,
  readAccessionTable,
  readManifest,
  readTaxonomyFile,
  SAMPLE_FASTA,
} from '../../../helpers/datasets.js';
import { ranksOf, readStoredPeptides, TaxonomyWalk } from '../../../helpers/fingerprintReference.js';
import { prng } from '../../../helpers/prng.js';
import {
  REFERENCE_ENZYMES,
  referenceDigest,
  referenceFasta,
  referenceUnits,
  type ReferenceProtein,
} from '../../../helpers/reference.js';
import { REFERENCE_PROTON } from '../../../helpers/referencePrecursor.js';

const TOLERANCE_PPM = 50;
const [LIGHTEST, HEAVIEST] = [800, 4000];
/** Digest peptides a source protein must have in the mass range, and true peaks a source gives at least. */
const PEPTIDES = 16;
/** Most such peptides of a source: its list then holds at most 120 peaks, as a MALDI peak list of a spot does. */
const MOST_PEPTIDES = 60;
const TRUE_PEAKS = 8;
const RATE = 0.95;

const QUERY: FingerprintQuery = {
  tolerance: { unit: 'ppm', below: TOLERANCE_PPM, above: TOLERANCE_PPM },
  fixed: [],
  variable: [],
  maxVariable: 0,
  filter: { taxa: [] },
  ion: 'mh',
  rank: 'species',
  proteins: 5,
  organisms: 5,
};

let dataset: Dataset;
let proteins: ReferenceProtein[];
/** The accessions of each sequence: the sample holds the same protein under several accessions. */
let accessionsOf: Map<string, Set<string>>;
let digest: (protein: ReferenceProtein) => string[];

beforeAll(async () => {
  const dir = await bundledDataset();
  // Read as the Node entries read it (zlib and Node's sha256, not the web streams every platform has).
  dataset = await Dataset.open(new FileSource(dir), nodeCodecs);
  const { enzyme, missedCleavages, minLength, maxLength, specificity, clipMet } = readManifest(dir).parameters;
  digest = (protein) => [
    ...referenceDigest(protein.sequence, REFERENCE_ENZYMES[enzyme], missedCleavages, minLength, maxLength, {
      specificity,
      clipMet,
    }),
  ];
  proteins = referenceFasta(readFileSync(SAMPLE_FASTA));
  accessionsOf = new Map();
  for (const { sequence, accession } of proteins) {
    if (!accessionsOf.has(sequence)) accessionsOf.set(sequence, new Set());
    accessionsOf.get(sequence)!.add(accession);
  }
}, 120_000);

/** A neutral mass in Da from the reference's residue table. */
const massOf = (peptide: string) => referenceUnits(peptide)! / 1e10;

/** Its [M+H]+ as measured: off by up to a third of the tolerance. */
const measured = (mass: number, random: () => number) =>
  mass * (1 + ((2 * random() - 1) * TOLERANCE_PPM) / 3 / 1e6) + REFERENCE_PROTON;

const randomPeak = (random: () => number) => LIGHTEST + random() * (HEAVIEST - LIGHTEST);

/** Proteins in a random order, each with its digest peptides in the mass range, when it has enough of them. */
function* sources(random: () => number): Generator<{ protein: ReferenceProtein; peptides: string[] }> {
  const order = Array.from(proteins.keys());
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const k of order) {
    const peptides = digest(proteins[k]).filter((peptide) => {
      const mass = massOf(peptide);
      return mass >= LIGHTEST && mass <= HEAVIEST;
    });
    if (peptides.length >= PEPTIDES && peptides.length <= MOST_PEPTIDES) yield { protein: proteins[k], peptides };
  }
}

/** Half of a source's peptides (at least TRUE_PEAKS), measured. */
function truePeaks(peptides: string[], random: () => number): number[] {
  const pool = [...peptides];
  const take = Math.max(TRUE_PEAKS, Math.floor(pool.length / 2));
  return Array.from({ length: take }, () => {
    const [peptide] = pool.splice(Math.floor(random() * pool.length), 1);
    return measured(massOf(peptide), random);
  });
}

/** The peaks with as many random ones added, shuffled. */
function withNoise(peaks: number[], random: () => number): Float64Array {
  const all = [...peaks, ...peaks.map(() => randomPeak(random))];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return Float64Array.from(all);
}

const percent = (rate: number) => `${(100 * rate).toFixed(1)} %`;

describe('fingerprint on simulated peak lists of real proteins', () => {
  it('ranks the right protein first for single proteins', async () => {
    const random = prng(8101);
    const lists: { source: ReferenceProtein; mz: Float64Array }[] = [];
    for (const { protein, peptides } of sources(random)) {
      lists.push({ source: protein, mz: withNoise(truePeaks(peptides, random), random) });
      if (lists.length === 500) break;
    }
    expect(lists).toHaveLength(500);
    const answers = await fingerprint(dataset, QUERY, lists);
    const missed = lists.flatMap(({ source }, i) => {
      const first = answers[i].proteins[0];
      const group = first ? [first.accession, ...first.sameSet] : [];
      return group.some((a) => accessionsOf.get(source.sequence)!.has(a))
        ? []
        : [`${source.accession} (first: ${group})`];
    });
    const rate = 1 - missed.length / lists.length;
    expect(
      rate,
      `right protein first in ${percent(rate)}; missed ${missed.slice(0, 20).join(', ')}`,
    ).toBeGreaterThanOrEqual(RATE);
  }, 120_000);

  it('ranks every protein of a mixture of two or three in the top 5', async () => {
    const random = prng(8202);
    const found = sources(random);
    const mixtures: { sources: ReferenceProtein[]; mz: Float64Array }[] = [];
    while (mixtures.length < 100) {
      const count = 2 + Math.floor(random() * 2);
      const picked: { protein: ReferenceProtein; peptides: string[] }[] = [];
      while (picked.length < count) {
        const next = found.next().value!;
        // Sources of one mixture differ: the same sequence twice would be one protein.
        if (picked.every(({ protein }) => protein.sequence !== next.protein.sequence)) picked.push(next);
      }
      const peaks = picked.flatMap(({ peptides }) => truePeaks(peptides, random));
      mixtures.push({ sources: picked.map(({ protein }) => protein), mz: withNoise(peaks, random) });
    }
    const answers = await fingerprint(dataset, QUERY, mixtures);
    const missed = mixtures.flatMap(({ sources: proteinsMixed }, i) => {
      const top = answers[i].proteins.flatMap((hit) => [hit.accession, ...hit.sameSet]);
      const absent = proteinsMixed.filter(({ sequence }) => !top.some((a) => accessionsOf.get(sequence)!.has(a)));
      return absent.length === 0 ? [] : [`${absent.map((p) => p.accession)} (top: ${top})`];
    });
    const rate = 1 - missed.length / mixtures.length;
    expect(
      rate,
      `every source in the top 5 in ${percent(rate)} of mixtures; missed ${missed.slice(0, 10).join('; ')}`,
    ).toBeGreaterThanOrEqual(RATE);
  }, 120_000);

  it('ranks a species first from its own peptides', async () => {
    const dir = await bundledDataset();
    const stored = readStoredPeptides(dir);
    const table: AccessionTable = readAccessionTable(dir);
    const walk = new TaxonomyWalk(readTaxonomyFile(dir)!);
    // Its marker peptides: those in the mass range whose proteins' lowest common ancestor is the species or lies
    // below it. The species is worked out once per set of taxa, keyed by their taxId when they are one (as for most
    // peptides), else by their sorted list: undefined when one of them is not in the taxonomy file.
    const speciesOf = new Map<number | string, number | undefined>();
    const markers = new Map<number, string[]>();
    for (let p = 0; p < stored.sequences.length; p++) {
      const mass = massOf(stored.sequences[p]);
      if (mass < LIGHTEST || mass > HEAVIEST) continue;
      const taxa: number[] = [];
      for (const rank of ranksOf(stored, p)) if (!taxa.includes(table.taxIds[rank])) taxa.push(table.taxIds[rank]);
      const id = taxa.length === 1 ? taxa[0] : taxa.sort((a, b) => a - b).join(',');
      let species = speciesOf.get(id);
      if (species === undefined && !speciesOf.has(id)) {
        species = taxa.every((taxId) => walk.has(taxId)) ? walk.ancestorAt(walk.lca(taxa), 'species') : undefined;
        speciesOf.set(id, species);
      }
      if (species === undefined) continue;
      let peptides = markers.get(species);
      if (!peptides) markers.set(species, (peptides = []));
      peptides.push(stored.sequences[p]);
    }
    const eligible = [...markers].filter(([, peptides]) => peptides.length >= PEPTIDES);
    expect(eligible.length).toBeGreaterThan(100);
    const random = prng(8303);
    const lists = Array.from({ length: 200 }, () => {
      const [species, peptides] = eligible[Math.floor(random() * eligible.length)];
      const pool = [...peptides];
      const peaks = Array.from({ length: TRUE_PEAKS + Math.floor(random() * 5) }, () => {
        const [peptide] = pool.splice(Math.floor(random() * pool.length), 1);
        return measured(massOf(peptide), random);
      });
      return { species, mz: withNoise(peaks, random) };
    });
    const answers = await fingerprint(dataset, QUERY, lists);
    const missed = lists.flatMap(({ species }, i) => {
      const first = answers[i].organisms?.[0]?.taxId;
      return first === species ? [] : [`${species} (first: ${first})`];
    });
    const rate = 1 - missed.length / lists.length;
    expect(rate, `species first in ${percent(rate)}; missed ${missed.slice(0, 20).join(', ')}`).toBeGreaterThanOrEqual(
      RATE,
    );
  }, 120_000);
});

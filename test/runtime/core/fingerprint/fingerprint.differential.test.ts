// Tests runtime/core/fingerprint/fingerprint.ts against a brute force written from the model, on the bundled real
// dataset: each peak's neutral mass and key window, the peptides (distinct, in every modified form) filling it
// counted over every stored peptide, each protein's peptides counted over the stored peptides, the peaks each
// protein and species explains (a species by the lowest common ancestor of a peptide's proteins, walked up the
// taxonomy file), and each contender's chance summed over every outcome of the list's peaks; then the order, scores,
// E-values, matches and unmatched peaks of every listed protein (listed one at a time on the peaks left, the listing
// written here from its definition) and organism, with and without a taxon and reviewed
// filter; and each listed protein's sequence (its first record in the FASTA, read here) and the share of it its
// matched peptides cover, residue by residue. Lists mix peaks of real stored peptides (several of one protein) with
// random ones.
import { beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, type Fingerprint, type PeakIon } from '../../../../runtime/core/fingerprint/fingerprint.js';
import { POOL } from '../../../../runtime/core/fingerprint/ranking.js';
import type { FilterSpec } from '../../../../runtime/core/range/accessionFilter.js';
import type { Tolerance } from '../../../../runtime/core/precursor/window.js';
import { Dataset } from '../../../../runtime/core/storage/dataset.js';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../../../runtime/entries/node/platform.js';
import type { AccessionTable } from '../../../../runtime/model/format.js';
import { parseModifications } from '../../../../runtime/model/modifications.js';
import { readFileSync } from 'node:fs';
import {
  bundledDataset,
  readAccessionTable,
  readPeptideCounts,
  readTaxonomyFile,
  SAMPLE_FASTA,
} from '../../../helpers/datasets.js';
import {
  outcomeDistribution,
  ranksOf,
  readStoredPeptides,
  tailFrom,
  TaxonomyWalk,
  windowChance,
  type StoredPeptides,
} from '../../../helpers/fingerprintReference.js';
import { prng } from '../../../helpers/prng.js';
import { lowerBound, referenceFasta, referenceUnits } from '../../../helpers/reference.js';
import {
  parseRefMods,
  REFERENCE_PROTON,
  referenceProforma,
  type RefSetting,
} from '../../../helpers/referencePrecursor.js';

interface Setting {
  name: string;
  tolerance: Tolerance;
  ion: PeakIon;
  fixed: string;
  variable: string;
  maxVariable: number;
  filter: FilterSpec;
  seed: number;
}

const ppm = (below: number, above = below): Tolerance => ({ unit: 'ppm', below, above });
const NONE: FilterSpec = { taxa: [] };
const SETTINGS: Setting[] = (
  [
    { name: '10 ppm, [M+H]+', tolerance: ppm(10), ion: 'mh', fixed: '', variable: '', maxVariable: 0, filter: NONE },
    {
      name: '0.02 Da, neutral masses',
      tolerance: { unit: 'Da', below: 0.02, above: 0.02 },
      ion: 'neutral',
      fixed: '',
      variable: '',
      maxVariable: 0,
      filter: NONE,
    },
    {
      name: '5 ppm below, 15 above, charge 2',
      tolerance: ppm(5, 15),
      ion: 2,
      fixed: '',
      variable: '',
      maxVariable: 0,
      filter: NONE,
    },
    {
      name: 'Carbamidomethyl@C fixed, Oxidation@M variable (1), 15 ppm, [M+H]+',
      tolerance: ppm(15),
      ion: 'mh',
      fixed: 'Carbamidomethyl@C',
      variable: 'Oxidation@M',
      maxVariable: 1,
      filter: NONE,
    },
    {
      name: 'mammals and baker’s yeast, reviewed only, 10 ppm, [M+H]+',
      tolerance: ppm(10),
      ion: 'mh',
      fixed: '',
      variable: '',
      maxVariable: 0,
      filter: { taxa: [40674, 4932], reviewed: true },
    },
  ] satisfies Omit<Setting, 'seed'>[]
).map((setting, i) => ({ ...setting, seed: 7100 + i }));

/** Lists per setting, all asked in one call. */
const LISTS = 20;
/** Proteins and organisms each answer lists: enough to cut deep into a list's contenders. */
const LISTED = 50;
/** Proteins a taxon lists (its best). */
const TAXON_PROTEINS = 5;
const KEYS_PER_DA = 10_000;
const UNITS_PER_DA = 1e10;

/** Every modified form of every stored peptide under a setting, sorted by key. */
interface Forms {
  /** By form, in creation order: its peptide, exact mass (1e-10 Da) and variable counts. */
  peptide: Int32Array;
  units: Float64Array;
  counts: (readonly number[])[];
  /** Forms of peptide p: firstForm[p] .. firstForm[p + 1]. */
  firstForm: Int32Array;
  /** Keys ascending, and the form of each. */
  sortedKeys: Float64Array;
  sortedForms: Int32Array;
  setting: RefSetting;
}

/** Half-up 4-decimal key of an exact mass in 1e-10 Da (an integer below 2^53, so the division is exact enough). */
const keyOf = (units: number) => Math.floor((units + 500_000) / 1_000_000);

let dir: string;
let dataset: Dataset;
let stored: StoredPeptides;
let units: Float64Array;
let table: AccessionTable;
let walk: TaxonomyWalk;
let total: number;
/** Peptides of each rank, counted over the stored peptides. */
let peptidesOfRank: Int32Array;
/** Stored peptides of rank r, ascending: byRank[byRankEnds[r − 1] ?? 0 .. byRankEnds[r]). */
let byRank: Int32Array;
let byRankEnds: Int32Array;
const peptidesByRank = (rank: number) => byRank.subarray(rank === 0 ? 0 : byRankEnds[rank - 1], byRankEnds[rank]);
const accessionOf = (rank: number) =>
  table.accessions.slice(rank === 0 ? 0 : table.accessionEnds[rank - 1], table.accessionEnds[rank]);
const formsBySetting = new Map<string, Forms>();

function formsOf(fixedText: string, variableText: string, maxVariable: number): Forms {
  const id = `${fixedText}|${variableText}|${maxVariable}`;
  const known = formsBySetting.get(id);
  if (known) return known;
  const setting: RefSetting = { fixed: parseRefMods(fixedText), variable: parseRefMods(variableText), maxVariable };
  // Residue sites only, the variable ones sharing no letter: a letter's fixed delta, and the variable one it takes.
  const fixedDelta = new Float64Array(128);
  const variableOf = new Int8Array(128).fill(-1);
  for (const mod of setting.fixed) {
    if (mod.site.kind !== 'residues') throw new Error(`formsOf: ${mod.text} is not on residues`);
    for (const letter of mod.site.residues) fixedDelta[letter.charCodeAt(0)] += Number(mod.units);
  }
  setting.variable.forEach((mod, m) => {
    if (mod.site.kind !== 'residues') throw new Error(`formsOf: ${mod.text} is not on residues`);
    for (const letter of mod.site.residues) {
      if (variableOf[letter.charCodeAt(0)] >= 0) throw new Error('formsOf: variable sites overlap');
      variableOf[letter.charCodeAt(0)] = m;
    }
  });
  const [peptide, massOf, counts]: [number[], number[], (readonly number[])[]] = [[], [], []];
  const add = (p: number, mass: number, vector: readonly number[]) => {
    peptide.push(p);
    massOf.push(mass);
    counts.push(vector);
  };
  const firstForm = new Int32Array(units.length + 1);
  const unmodified: readonly number[] = setting.variable.map(() => 0);
  const slots = new Int32Array(setting.variable.length);
  const vector = setting.variable.map(() => 0);
  const variableUnits = setting.variable.map((mod) => Number(mod.units));
  // Without modifications every peptide is its one form, its letters' fixed deltas all 0: they are not read.
  const modified = setting.fixed.length > 0 || setting.variable.length > 0;
  for (let p = 0; p < units.length; p++) {
    firstForm[p] = peptide.length;
    const sequence = stored.sequences[p];
    let base = units[p];
    for (let m = 0; m < slots.length; m++) slots[m] = 0;
    let open = false;
    for (let i = 0; modified && i < sequence.length; i++) {
      const code = sequence.charCodeAt(i);
      base += fixedDelta[code];
      if (variableOf[code] < 0) continue;
      slots[variableOf[code]]++;
      open = true;
    }
    // Each variable modification takes up to its slots, at most maxVariable in all: every vector of counts.
    if (!open || maxVariable === 0) add(p, base, unmodified);
    else
      (function assign(m: number, room: number, mass: number): void {
        if (m === slots.length) return add(p, mass, vector.slice());
        for (let c = 0; c <= Math.min(slots[m], room); c++) {
          vector[m] = c;
          assign(m + 1, room - c, mass + c * variableUnits[m]);
        }
      })(0, maxVariable, base);
  }
  firstForm[units.length] = peptide.length;
  // Sorted packed: key · 2^22 + form (keys below 2^27, forms below 2^22: exact in a double).
  const packed = new Float64Array(massOf.length);
  for (let f = 0; f < massOf.length; f++) packed[f] = keyOf(massOf[f]) * 2 ** 22 + f;
  packed.sort();
  const sortedKeys = new Float64Array(packed.length);
  const sortedForms = new Int32Array(packed.length);
  for (let k = 0; k < packed.length; k++) {
    sortedKeys[k] = Math.floor(packed[k] / 2 ** 22);
    sortedForms[k] = packed[k] - sortedKeys[k] * 2 ** 22;
  }
  const forms: Forms = {
    peptide: Int32Array.from(peptide),
    units: Float64Array.from(massOf),
    counts,
    firstForm,
    sortedKeys,
    sortedForms,
    setting,
  };
  formsBySetting.set(id, forms);
  return forms;
}

beforeAll(async () => {
  dir = await bundledDataset();
  // Read as the Node entries read it (zlib and Node's sha256, not the web streams every platform has).
  dataset = await Dataset.open(new FileSource(dir), nodeCodecs);
  stored = readStoredPeptides(dir);
  units = new Float64Array(stored.sequences.length);
  for (let p = 0; p < units.length; p++) units[p] = referenceUnits(stored.sequences[p])!;
  table = readAccessionTable(dir);
  walk = new TaxonomyWalk(readTaxonomyFile(dir)!);
  total = dataset.manifest.totals.peptides;
  peptidesOfRank = new Int32Array(table.taxIds.length);
  for (const rank of stored.refs) peptidesOfRank[rank]++;
  byRankEnds = new Int32Array(peptidesOfRank.length);
  for (let rank = 0, end = 0; rank < byRankEnds.length; rank++) byRankEnds[rank] = end += peptidesOfRank[rank];
  // Peptide p's ranks are refs[refEnds[p − 1] .. refEnds[p]), one after the other: each rank's peptides are filled
  // in from the start of its room, in ascending order.
  byRank = new Int32Array(stored.refs.length);
  const next = Int32Array.from(byRankEnds, (end, rank) => end - peptidesOfRank[rank]);
  for (let p = 0, r = 0; p < total; p++) for (; r < stored.refEnds[p]; r++) byRank[next[stored.refs[r]]++] = p;
}, 120_000);

describe('the brute force’s own ground', () => {
  it('weighs every stored peptide at its stored key, and counts each protein’s peptides as the dataset does', () => {
    const plain = formsOf('', '', 0);
    expect(plain.peptide.length).toBe(total);
    let wrong = 0;
    for (let p = 0; p < total; p++) if (keyOf(units[p]) !== stored.keys[p]) wrong++;
    expect(wrong).toBe(0);
    expect(Array.from(peptidesOfRank)).toEqual(readPeptideCounts(dir));
  });

  it('counts each species’ peptides as the taxonomy file does: those with an accession at or below it', () => {
    const species = speciesOfRanks();
    const counted = new Map<number, number>();
    for (let p = 0; p < total; p++) {
      const of: number[] = []; // each once
      for (const rank of ranksOf(stored, p))
        if (species[rank] >= 0 && !of.includes(species[rank])) of.push(species[rank]);
      for (const s of of) counted.set(s, (counted.get(s) ?? 0) + 1);
    }
    const differing = walk.ofRank('species').filter((s) => walk.peptides(s) !== (counted.get(s) ?? 0));
    expect(differing).toEqual([]);
  });

  it('counts each species’ own peptides as the taxonomy file does: those whose accessions’ lowest common ancestor is at or below it', () => {
    // A peptide of one accession speaks for its organism's species.
    const species = speciesOfRanks();
    const counted = new Map<number, number>();
    for (let p = 0; p < total; p++) {
      const ranks = ranksOf(stored, p);
      let s: number | undefined = species[ranks[0]] >= 0 ? species[ranks[0]] : undefined;
      if (ranks.length > 1) {
        const taxa: number[] = [];
        for (const rank of ranks) if (walk.has(table.taxIds[rank])) taxa.push(table.taxIds[rank]);
        s = taxa.length === 0 ? undefined : speciesAbove(taxa);
      }
      if (s !== undefined) counted.set(s, (counted.get(s) ?? 0) + 1);
    }
    const differing = walk.ofRank('species').filter((s) => walk.specificPeptides(s) !== (counted.get(s) ?? 0));
    expect(differing).toEqual([]);
    expect(walk.ofRank('species').some((s) => walk.specificPeptides(s) < walk.peptides(s))).toBe(true);
  });
});

/** The species of each rank's organism, by rank (-1 where it has none, or the taxonomy file not its organism). */
const speciesOfRanks = () =>
  Int32Array.from(table.taxIds, (taxId) => (walk.has(taxId) ? (walk.ancestorAt(taxId, 'species') ?? -1) : -1));

/** Which ranks a filter keeps: reviewed as asked, and the organism at or below one of its taxa. */
function keeperOf(filter: FilterSpec): (rank: number) => boolean {
  if (filter.taxa.length === 0 && filter.reviewed === undefined) return () => true;
  const kept = Array.from(
    table.taxIds,
    (taxId, rank) =>
      (filter.reviewed === undefined || (table.reviewed[rank] === 1) === filter.reviewed) &&
      (filter.taxa.length === 0 || (walk.has(taxId) && filter.taxa.some((t) => walk.within(taxId, t)))),
  );
  return (rank) => kept[rank];
}

/** A peak's m/z from a neutral mass, for the setting's ion. */
function mzOf(mass: number, ion: PeakIon): number {
  if (ion === 'neutral') return mass;
  return ion === 'mh' ? mass + REFERENCE_PROTON : mass / ion + REFERENCE_PROTON;
}

/** The neutral mass a peak's m/z stands for. */
function massOf(mz: number, ion: PeakIon): number {
  if (ion === 'neutral') return mz;
  return ion === 'mh' ? mz - REFERENCE_PROTON : (mz - REFERENCE_PROTON) * ion;
}

/** Peak lists of 6–12 peaks: peaks of real peptides, several of one or two proteins, and random m/z in 700–3500. */
function peakLists(setting: Setting, forms: Forms, keeps: (rank: number) => boolean): Float64Array[] {
  const random = prng(setting.seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const { tolerance, ion } = setting;
  const usable = (f: number) => {
    const mz = mzOf(forms.units[f] / UNITS_PER_DA, ion);
    return mz >= 700 && mz <= 3500;
  };
  const pool = Array.from(table.taxIds.keys()).filter(keeps);
  return Array.from({ length: LISTS }, () => {
    const n = 6 + Math.floor(random() * 7);
    const mz: number[] = [];
    const sources = random() < 0.4 ? 2 : 1;
    for (let s = 0; s < sources; s++) {
      let candidates: number[] = [];
      while (candidates.length < 3) {
        const rank = pick(pool);
        candidates = Array.from(peptidesByRank(rank)).flatMap((p) => {
          const all = Array.from(
            { length: forms.firstForm[p + 1] - forms.firstForm[p] },
            (_, k) => forms.firstForm[p] + k,
          );
          return all.filter(usable);
        });
      }
      const take = Math.min(2 + Math.floor(random() * 3), n - 2 - mz.length);
      for (let t = 0; t < take; t++) {
        const form = candidates.splice(Math.floor(random() * candidates.length), 1)[0];
        const mass = forms.units[form] / UNITS_PER_DA;
        // Within a third of the narrower side of the window: still inside it.
        const width = Math.min(tolerance.below, tolerance.above) / 3;
        const noise = (2 * random() - 1) * (tolerance.unit === 'ppm' ? (mass * width) / 1e6 : width);
        mz.push(mzOf(mass + noise, ion));
        if (candidates.length === 0) break;
      }
    }
    // Now and then the same peptide twice: two peaks, each counted.
    if (random() < 0.3 && mz.length < n) mz.push(mz[0] * (1 + (random() - 0.5) * 1e-7));
    while (mz.length < n) mz.push(700 + random() * 2800);
    for (let i = mz.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [mz[i], mz[j]] = [mz[j], mz[i]];
    }
    return Float64Array.from(mz);
  });
}

interface RefMatch {
  peak: number;
  form: number;
  sequence: string;
  mass: number;
}

/** A contender ranked by the brute force: its chance, peaks, matches (proteins) and sort key. */
interface RefContender {
  id: number;
  peaks: number[];
  peptides: number;
  p: number;
  matches: RefMatch[];
}

/** The brute force's answer to one list. */
interface RefAnswer {
  masses: number[];
  inWindow: number[];
  /** Every protein by its chance on all the peaks, and those listed (the order of the listing). */
  proteins: RefContender[];
  listed: RefListed[];
  species: RefContender[];
}

/** A listed protein: the peaks no protein listed above explains, their chance on the peaks left, its equals. */
interface RefListed {
  protein: RefContender;
  distinct: number;
  p: number;
  sameSet: number[];
}

/**
 * The listing, by its definition: of the POOL proteins with the least chance on all the peaks, one at a time the
 * protein with the least chance on the peaks left unexplained (summed over every outcome of those peaks), more such
 * peaks, then the earlier; one explaining none of them is not listed, one explaining exactly a listed protein's peaks
 * is listed with it.
 */
function listing(pool: RefContender[], inWindow: number[], count: number): RefListed[] {
  const explained = new Set<number>();
  const taken = new Set<RefContender>();
  const listed: RefListed[] = [];
  while (listed.length < count) {
    const left = inWindow.map((_, i) => i).filter((i) => !explained.has(i));
    let best: RefListed | undefined;
    // The outcomes of the peaks left, once per peptide count this round.
    const distributions = new Map<number, Float64Array>();
    for (const protein of pool) {
      if (taken.has(protein)) continue;
      const distinct = protein.peaks.filter((i) => !explained.has(i)).length;
      if (distinct === 0) continue;
      let exactly = distributions.get(protein.peptides);
      if (!exactly) {
        exactly = outcomeDistribution(left.map((i) => windowChance(inWindow[i], total, protein.peptides)));
        distributions.set(protein.peptides, exactly);
      }
      const p = tailFrom(exactly, distinct);
      if (!best || p < best.p || (p === best.p && distinct > best.distinct))
        best = { protein, distinct, p, sameSet: [] };
    }
    if (!best) break;
    taken.add(best.protein);
    for (const i of best.protein.peaks) explained.add(i);
    for (const protein of pool)
      if (!taken.has(protein) && String(protein.peaks) === String(best.protein.peaks)) {
        taken.add(protein);
        best.sameSet.push(protein.id);
      }
    listed.push(best);
  }
  return listed;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A form's ProForma, written by the reference when a comparison needs it. */
const proformaOf = (forms: Forms, form: number) =>
  referenceProforma(stored.sequences[forms.peptide[form]], forms.setting, forms.counts[form]);

/**
 * The species above the lowest common ancestor of some taxa, once per set of taxa: keyed by their taxId when they are
 * one (as for most peptides), else by their sorted list.
 */
const speciesOfTaxa = new Map<number | string, number | undefined>();
function speciesAbove(taxa: number[]): number | undefined {
  const id = taxa.every((taxId) => taxId === taxa[0]) ? taxa[0] : [...new Set(taxa)].sort((a, b) => a - b).join(',');
  if (!speciesOfTaxa.has(id)) speciesOfTaxa.set(id, walk.ancestorAt(walk.lca(taxa), 'species'));
  return speciesOfTaxa.get(id);
}

function reference(setting: Setting, forms: Forms, keeps: (rank: number) => boolean, mz: Float64Array): RefAnswer {
  const { below, above, unit } = setting.tolerance;
  const masses = Array.from(mz, (value) => massOf(value, setting.ion));
  const inWindow: number[] = [];
  const proteinPeaks = new Map<number, Set<number>>();
  const proteinMatches = new Map<number, RefMatch[]>();
  const speciesPeaks = new Map<number, Set<number>>();
  masses.forEach((M, peak) => {
    const low = unit === 'ppm' ? (M * below) / 1e6 : below;
    const high = unit === 'ppm' ? (M * above) / 1e6 : above;
    const lowKey = Math.ceil((M - low) * KEYS_PER_DA);
    const highKey = Math.floor((M + high) * KEYS_PER_DA);
    const from = lowerBound(forms.sortedKeys, lowKey);
    const to = lowerBound(forms.sortedKeys, highKey + 1);
    const distinct = new Set<number>();
    for (let k = from; k < to; k++) {
      const form = forms.sortedForms[k];
      const p = forms.peptide[form];
      distinct.add(p);
      const kept = Array.from(ranksOf(stored, p)).filter(keeps);
      let match: RefMatch | undefined;
      for (const rank of kept) {
        if (!proteinPeaks.has(rank)) [proteinPeaks.set(rank, new Set()), proteinMatches.set(rank, [])];
        proteinPeaks.get(rank)!.add(peak);
        const sequence = stored.sequences[p];
        match ??= { peak, form, sequence, mass: forms.units[form] / UNITS_PER_DA };
        proteinMatches.get(rank)!.push(match);
      }
      const taxa = kept.map((rank) => table.taxIds[rank]).filter((taxId) => walk.has(taxId));
      if (taxa.length === 0) continue;
      const species = speciesAbove(taxa);
      if (species === undefined) continue;
      if (!speciesPeaks.has(species)) speciesPeaks.set(species, new Set());
      speciesPeaks.get(species)!.add(peak);
    }
    inWindow.push(distinct.size);
  });
  // Each contender's chance: every outcome of the list's peaks summed, once per peptide count.
  const distributions = new Map<number, Float64Array>();
  const chance = (m: number, k: number) => {
    let exactly = distributions.get(m);
    if (!exactly) {
      exactly = outcomeDistribution(inWindow.map((d) => windowChance(d, total, m)));
      distributions.set(m, exactly);
    }
    return tailFrom(exactly, k);
  };
  const proteins = [...proteinPeaks].map(([rank, peaks]): RefContender => {
    const m = peptidesOfRank[rank];
    return {
      id: rank,
      peaks: [...peaks].sort((a, b) => a - b),
      peptides: m,
      p: chance(m, peaks.size),
      matches: proteinMatches
        .get(rank)!
        .sort(
          (a, b) => a.peak - b.peak || a.mass - b.mass || byText(proformaOf(forms, a.form), proformaOf(forms, b.form)),
        ),
    };
  });
  proteins.sort((a, b) => a.p - b.p || b.peaks.length - a.peaks.length || byText(accessionOf(a.id), accessionOf(b.id)));
  const species = [...speciesPeaks].map(([taxId, peaks]): RefContender => {
    const m = walk.specificPeptides(taxId);
    return { id: taxId, peaks: [...peaks].sort((a, b) => a - b), peptides: m, p: chance(m, peaks.size), matches: [] };
  });
  species.sort((a, b) => a.p - b.p || b.peaks.length - a.peaks.length || a.id - b.id);
  return { masses, inWindow, proteins, listed: listing(proteins.slice(0, POOL), inWindow, LISTED), species };
}

/** Whether two numbers agree to `relative` (or both lie within `absolute` of each other). */
const close = (a: number, b: number, relative: number, absolute = 0) =>
  Math.abs(a - b) <= relative * Math.max(Math.abs(a), Math.abs(b)) + absolute;

const scoreOf = (p: number) => -10 * Math.log10(p);

/** The first difference between the core's answer and the brute force's, or undefined. */
function difference(
  forms: Forms,
  got: Fingerprint,
  want: RefAnswer,
  mz: Float64Array,
  tested: { proteins: number; taxa: number },
): string | undefined {
  if (got.peaks.length !== mz.length) return `${got.peaks.length} peaks, ${mz.length} given`;
  for (let i = 0; i < mz.length; i++) {
    const peak = got.peaks[i];
    if (peak.mz !== mz[i] || peak.error !== undefined) return `peak ${i}: ${JSON.stringify(peak)} for m/z ${mz[i]}`;
    if (!close(peak.mass, want.masses[i], 1e-12)) return `peak ${i}: mass ${peak.mass}, want ${want.masses[i]}`;
    if (peak.inWindow !== want.inWindow[i]) return `peak ${i}: inWindow ${peak.inWindow}, want ${want.inWindow[i]}`;
  }
  if (got.tested.proteins !== tested.proteins || got.tested.taxa !== tested.taxa)
    return `tested ${JSON.stringify(got.tested)}, want ${JSON.stringify(tested)}`;
  const proteins = want.listed.map((l) => l.protein);
  if (got.proteins.length !== proteins.length) return `${got.proteins.length} proteins, want ${proteins.length}`;
  for (let i = 0; i < proteins.length; i++) {
    const [hit, ref, listed] = [got.proteins[i], proteins[i], want.listed[i]];
    const at = `protein ${i} (${hit.accession}, want ${accessionOf(ref.id)} of p ${ref.p})`;
    if (hit.accession !== accessionOf(ref.id)) return `${at}: not the one listed here`;
    if (hit.distinct !== listed.distinct || !close(hit.distinctScore, scoreOf(listed.p), 1e-9, 1e-9))
      return `${at}: ${hit.distinct} distinct peaks scoring ${hit.distinctScore}; want ${listed.distinct}, ${scoreOf(listed.p)}`;
    if (String(hit.sameSet) !== String(listed.sameSet.map(accessionOf)))
      return `${at}: same set ${hit.sameSet}, want ${listed.sameSet.map(accessionOf)}`;
    if (hit.taxId !== table.taxIds[ref.id] || hit.reviewed !== (table.reviewed[ref.id] === 1))
      return `${at}: taxId ${hit.taxId}, reviewed ${hit.reviewed}`;
    if (hit.peptides !== ref.peptides || hit.matched !== ref.peaks.length)
      return `${at}: ${hit.peptides} peptides, ${hit.matched} matched; want ${ref.peptides}, ${ref.peaks.length}`;
    if (!close(hit.score, scoreOf(ref.p), 1e-9, 1e-9)) return `${at}: score ${hit.score}, want ${scoreOf(ref.p)}`;
    if (!close(hit.expect, ref.p * tested.proteins, 1e-9)) return `${at}: expect ${hit.expect}`;
    const unmatched = mz.length === 0 ? [] : Array.from(mz.keys()).filter((k) => !ref.peaks.includes(k));
    if (JSON.stringify(hit.unmatched) !== JSON.stringify(unmatched)) return `${at}: unmatched ${hit.unmatched}`;
    if (hit.matches.length !== ref.matches.length)
      return `${at}: ${hit.matches.length} matches, want ${ref.matches.length}`;
    const sequence = sequenceOf(hit.accession)!;
    const covered = referenceCovered(
      sequence,
      ref.matches.map((m) => m.sequence),
    );
    const residues = covered.reduce((sum, [from, to]) => sum + to - from, 0);
    if (hit.sequence !== sequence || hit.length !== sequence.length) return `${at}: sequence ${hit.sequence}`;
    if (JSON.stringify(hit.covered) !== JSON.stringify(covered) || hit.coverage !== residues / sequence.length)
      return `${at}: covered ${JSON.stringify(hit.covered)} (${hit.coverage}), want ${JSON.stringify(covered)}`;
    for (let j = 0; j < ref.matches.length; j++) {
      const [match, want_] = [hit.matches[j], ref.matches[j]];
      const errorDa = want.masses[want_.peak] - want_.mass;
      if (
        match.peak !== want_.peak ||
        match.sequence !== want_.sequence ||
        match.proforma !== proformaOf(forms, want_.form) ||
        !close(match.mass, want_.mass, 1e-13) ||
        !close(match.errorDa, errorDa, 1e-9, 1e-11) ||
        !close(match.errorPpm, (errorDa / want_.mass) * 1e6, 1e-9, 1e-8)
      )
        return `${at}: match ${j} ${JSON.stringify(match)}, want ${JSON.stringify(want_)}`;
    }
  }
  // A peak is explained by the first listed protein that matches it, by its first peptide doing so.
  for (let i = 0; i < mz.length; i++) {
    const by = proteins.find((ref) => ref.peaks.includes(i));
    const first = by?.matches.find((m) => m.peak === i);
    const want_ = by && { accession: accessionOf(by.id), proforma: proformaOf(forms, first!.form) };
    if (JSON.stringify(got.peaks[i].explainedBy) !== JSON.stringify(want_))
      return `peak ${i}: explained by ${JSON.stringify(got.peaks[i].explainedBy)}, want ${JSON.stringify(want_)}`;
  }
  const species = want.species.slice(0, LISTED);
  const organisms = got.organisms ?? [];
  if (organisms.length !== species.length) return `${organisms.length} organisms, want ${species.length}`;
  for (let i = 0; i < species.length; i++) {
    const [hit, ref] = [organisms[i], species[i]];
    const at = `organism ${i} (${hit.taxId}, want ${ref.id} of p ${ref.p})`;
    if (hit.taxId !== ref.id || hit.name !== walk.name(ref.id) || hit.rank !== 'species')
      return `${at}: ${hit.name}, ${hit.rank}`;
    if (hit.peptides !== ref.peptides || hit.matched !== ref.peaks.length)
      return `${at}: ${hit.peptides}, ${hit.matched}`;
    if (!close(hit.score, scoreOf(ref.p), 1e-9, 1e-9)) return `${at}: score ${hit.score}, want ${scoreOf(ref.p)}`;
    if (!close(hit.expect, ref.p * tested.taxa, 1e-9)) return `${at}: expect ${hit.expect}`;
    if (JSON.stringify(hit.peaks) !== JSON.stringify(ref.peaks)) return `${at}: peaks ${hit.peaks}, want ${ref.peaks}`;
    // The first TAXON_PROTEINS proteins in its subtree, by the brute force's order.
    const best: string[] = [];
    for (const protein of want.proteins) {
      if (best.length === TAXON_PROTEINS) break;
      const taxId = table.taxIds[protein.id];
      if (walk.has(taxId) && walk.within(taxId, ref.id)) best.push(accessionOf(protein.id));
    }
    if (JSON.stringify(hit.proteins) !== JSON.stringify(best)) return `${at}: proteins ${hit.proteins}, want ${best}`;
  }
  return undefined;
}

describe.each(SETTINGS)('fingerprint against the brute force: $name', (setting) => {
  it('gives every list the brute force’s peaks, proteins and organisms', async () => {
    const forms = formsOf(setting.fixed, setting.variable, setting.maxVariable);
    const keeps = keeperOf(setting.filter);
    const lists = peakLists(setting, forms, keeps);
    const answers = await fingerprint(
      dataset,
      {
        tolerance: setting.tolerance,
        fixed: setting.fixed ? parseModifications(setting.fixed) : [],
        variable: setting.variable ? parseModifications(setting.variable) : [],
        maxVariable: setting.maxVariable,
        filter: setting.filter,
        ion: setting.ion,
        rank: 'species',
        proteins: LISTED,
        organisms: LISTED,
      },
      lists.map((mz, i) => ({ mz, title: `list ${i}` })),
    );
    const kept = table.taxIds.filter((_, rank) => keeps(rank)).length;
    const taxa = walk
      .ofRank('species')
      .filter(
        (s) =>
          walk.specificPeptides(s) > 0 &&
          (setting.filter.taxa.length === 0 || setting.filter.taxa.some((t) => walk.within(s, t))),
      ).length;
    let several = 0;
    lists.forEach((mz, i) => {
      const want = reference(setting, forms, keeps, mz);
      expect(answers[i].title).toBe(`list ${i}`);
      expect(difference(forms, answers[i], want, mz, { proteins: kept, taxa }), `list ${i}`).toBeUndefined();
      if (want.proteins[0]?.peaks.length >= 3) several++;
      for (const hit of answers[i].proteins) expect(keeps(rankOf(hit.accession)), hit.accession).toBe(true);
    });
    // The lists hold proteins that explain several peaks, not only lone matches.
    expect(several).toBeGreaterThan(LISTS / 2);
  });
});

/** Each accession's sequence: its first record's in the FASTA. */
let fastaSequences: Map<string, string> | undefined;
function sequenceOf(accession: string): string | undefined {
  if (!fastaSequences) {
    fastaSequences = new Map();
    for (const protein of referenceFasta(readFileSync(SAMPLE_FASTA)))
      if (!fastaSequences.has(protein.accession)) fastaSequences.set(protein.accession, protein.sequence);
  }
  return fastaSequences.get(accession);
}

/** The residues of `sequence` some peptide spans where its letters equal the sequence's, as [from, to) runs. */
function referenceCovered(sequence: string, peptides: readonly string[]): [number, number][] {
  const marks = new Uint8Array(sequence.length);
  for (const peptide of peptides)
    for (let start = 0; start + peptide.length <= sequence.length; start++)
      if (sequence.startsWith(peptide, start)) marks.fill(1, start, start + peptide.length);
  const runs: [number, number][] = [];
  marks.forEach((mark, i) => {
    if (!mark) return;
    if (runs.length > 0 && runs[runs.length - 1][1] === i) runs[runs.length - 1][1] = i + 1;
    else runs.push([i, i + 1]);
  });
  return runs;
}

let rankByAccession: Map<string, number> | undefined;
function rankOf(accession: string): number {
  rankByAccession ??= new Map(Array.from(table.taxIds.keys(), (rank) => [accessionOf(rank), rank]));
  return rankByAccession.get(accession) ?? -1;
}

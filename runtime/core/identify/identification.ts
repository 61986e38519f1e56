// A file's identification once every spectrum is scored: each PSM's q-values at the three levels (levels.ts), its
// localised ProForma and the organism its peptide points to (organisms.ts), the sample's taxon table, and what passes
// the FDR threshold.
import { localisedProforma } from '../../model/proforma.js';
import type { Taxonomy } from '../../model/taxonomy.js';
import { decoyForm } from './decoy.js';
import { featureRow, featuresOf, fitDiscriminant, indicatorCharges, project } from './discriminant.js';
import type { Form } from './forms.js';
import type { MgfItem, Malformed } from '../match/mgf.js';
import type { StreamOptions } from '../match/match.js';
import type { Dataset } from '../storage/dataset.js';
import { identifySpectra, type BatchSource, type FilePsm, type IdentifyQuery, type Refused } from './identify.js';
import { FDR_THRESHOLD } from './fdr.js';
import { fdrLevels } from './levels.js';
import { lcaNode, taxonTable, type TaxonRow } from './organisms.js';

/** A PSM with its q-values, ProForma and organism. */
export interface IdentifiedPsm extends FilePsm {
  /** What the q-values rank by: the discriminant's projection when one was fit, else the hyperscore. */
  score: number;
  spectrumQ: number;
  peptideQ: number;
  proteinQ: number;
  proforma: string;
  /** The lowest common ancestor of its proteins' taxa: taxId (-1 none, and for a decoy) and name ('' unknown). */
  lca: { taxId: number; name: string };
}

/** Counts at FDR_THRESHOLD: target spectra, distinct peptides (localised forms) and proteins. */
export interface Passing {
  psms: number;
  peptides: number;
  proteins: number;
}

export interface Identification {
  /** Spectra read (with or without a PSM). */
  spectra: number;
  /** Records of the file that could not be read (skipped). */
  malformed: Malformed[];
  /** Candidates with more placements of their modifications than MAX_FORMS (forms.ts): the first ones were scored. */
  cutCandidates: number;
  /** Whether the q-values rank by a discriminant fit on this file (else by the hyperscore: too few PSMs to fit). */
  rescored: boolean;
  psms: IdentifiedPsm[];
  refused: Refused[];
  passing: Passing;
  /** Peptides (distinct sequences) passing at the peptide level, by the taxon of their LCA; [] without a taxonomy. */
  taxa: TaxonRow[];
}

/** A target form's identity: its sequence and its variable modifications' places. */
const formKey = (sequence: string, form: Form) =>
  `${sequence}|${form.placed.map((p) => `${p.slot}:${p.spec}`).join(',')}`;

/** The target a PSM stands for: its own peptide, or the target whose decoy it is (a decoy of a decoy is the target). */
function targetOf(psm: FilePsm): { sequence: string; form: Form } {
  return psm.decoy ? decoyForm(psm.sequence, psm.form)! : psm;
}

/** The identification of the PSMs of a file of `spectra` spectra, against a dataset with `taxonomy` (if any). */
export function identification(
  query: Pick<IdentifyQuery, 'fixed' | 'variable'>,
  spectra: number,
  psms: readonly FilePsm[],
  refused: Refused[],
  taxonomy: Taxonomy | undefined,
  malformed: Malformed[] = [],
  cutCandidates = 0,
): Identification {
  const targets = psms.map(targetOf);
  const keys = targets.map((t) => formKey(t.sequence, t.form));
  const scores = discriminantScores(psms);
  const q = fdrLevels(
    psms.map((psm, i) => ({ ...psm, score: scores.values[i], peptide: keys[i], proteins: psm.ref.accessions })),
  );
  // A decoy stands for no organism: its proteins are its target's reversed.
  const lcas = psms.map((psm) => (psm.decoy ? { taxId: -1, name: '' } : lcaOf(taxonomy, psm.ref.taxIds)));
  const identified = psms.map(
    (psm, i): IdentifiedPsm => ({
      ...psm,
      score: scores.values[i],
      spectrumQ: q.spectrum[i],
      peptideQ: q.peptide[i],
      proteinQ: q.protein[i],
      proforma: localisedProforma(psm.sequence, query.fixed, query.variable, psm.form.placed, psm.form.startsProtein),
      lca: lcas[i],
    }),
  );
  const passes = (psm: IdentifiedPsm, level: 'spectrumQ' | 'peptideQ' | 'proteinQ') =>
    psm.rank === 1 && !psm.decoy && psm[level] <= FDR_THRESHOLD;
  const peptides = new Map<string, number>(); // plain sequence → its LCA node
  for (const psm of identified)
    if (passes(psm, 'peptideQ') && taxonomy) peptides.set(psm.sequence, lcaNode(taxonomy, psm.ref.taxIds));
  return {
    spectra,
    malformed,
    cutCandidates,
    rescored: scores.fitted,
    psms: identified,
    refused,
    passing: {
      psms: identified.filter((psm) => passes(psm, 'spectrumQ')).length,
      peptides: new Set(identified.flatMap((psm, i) => (passes(psm, 'peptideQ') ? [keys[i]] : []))).size,
      proteins: new Set(identified.flatMap((psm) => (passes(psm, 'proteinQ') ? psm.ref.accessions : []))).size,
    },
    taxa: taxonomy ? taxonTable(taxonomy, [...peptides.values()]) : [],
  };
}

/**
 * Each PSM's score for the FDR: its projection on the discriminant fit to the spectra's best PSMs, targets against
 * decoys (discriminant.ts); the hyperscore when there are too few of either to fit one.
 */
function discriminantScores(psms: readonly FilePsm[]): { values: number[]; fitted: boolean } {
  const charges = indicatorCharges(psms.map((psm) => psm.charge));
  const rows = psms.map((psm) => featureRow(featuresOf(psm), charges));
  const best = psms.map((_, i) => i).filter((i) => psms[i].rank === 1);
  const w = fitDiscriminant(
    best.map((i) => rows[i]),
    best.map((i) => psms[i].decoy),
  );
  return w
    ? { values: rows.map((row) => project(w, row)), fitted: true }
    : { values: psms.map((psm) => psm.hyperscore), fitted: false };
}

/** The LCA of a PSM's taxIds: by the taxonomy when there is one, else the taxId they all share. */
function lcaOf(taxonomy: Taxonomy | undefined, taxIds: readonly number[]): { taxId: number; name: string } {
  if (!taxonomy) {
    const shared = taxIds.length > 0 && taxIds.every((t) => t === taxIds[0]) ? taxIds[0] : -1;
    return { taxId: shared, name: '' };
  }
  const node = lcaNode(taxonomy, taxIds);
  return node < 0 ? { taxId: -1, name: '' } : { taxId: taxonomy.taxIds[node], name: taxonomy.taxon(node).name };
}

/**
 * Every spectrum of `items` identified (identify.ts, batch by batch; with `batches`, as they make them) and the
 * identification of them all. `onBatch` is told the spectra done after each batch.
 */
export async function identifyAll(
  dataset: Dataset,
  query: IdentifyQuery,
  items: AsyncIterable<MgfItem>,
  options: StreamOptions & { onBatch?: (spectra: number) => void; batches?: BatchSource } = {},
): Promise<Identification> {
  const psms: FilePsm[] = [];
  const refused: Refused[] = [];
  const malformed: Malformed[] = [];
  let spectra = 0;
  let cut = 0;
  const told = options.malformed;
  const tell = (m: Malformed) => {
    malformed.push(m);
    told?.(m);
  };
  const batches = options.batches
    ? options.batches(items, tell)
    : identifySpectra(dataset, query, items, { ...options, malformed: tell });
  for await (const batch of batches) {
    psms.push(...batch.psms);
    refused.push(...batch.refused);
    spectra += batch.spectra;
    cut += batch.cut;
    options.onBatch?.(spectra);
  }
  return identification(query, spectra, psms, refused, await dataset.taxonomy(), malformed, cut);
}

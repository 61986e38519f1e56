// What a dataset is, from its manifest alone (no shard is read): the original service's db-info properties
// (a JSON object of strings) and our fuller description.
import type { BuildParameters, Compression, Manifest, SourceEntry, Totals } from '../../model/format.js';

/** The original service's db-info: its keys, every value a string, then ours. */
export function dbInfo(manifest: Manifest): Record<string, string> {
  const { parameters: p, totals: t, release } = manifest;
  return {
    db_name:
      release?.name ??
      manifest.sources
        .filter((s) => !isTaxdump(s))
        .map((s) => s.file)
        .join(', '),
    enzyme_name: p.enzyme,
    miss_cleavage: String(p.missedCleavages),
    min_peptide_length: String(p.minLength),
    max_peptide_length: String(p.maxLength),
    protein_count: String(t.proteins),
    peptide_count: String(t.peptides),
    mass_group_count: String(t.massGroups),
    accession_count: String(t.accessions),
    dataset_version: manifest.datasetVersion,
    format_version: String(manifest.formatVersion),
    ...(p.specificity === undefined ? {} : { specificity: p.specificity, clip_n_term_met: String(p.clipMet ?? false) }),
    ...(release?.date ? { release_date: release.date } : {}),
    ...(t.reviewedAccessions === undefined ? {} : { reviewed_accession_count: String(t.reviewedAccessions) }),
    ...(manifest.taxonomy ? { taxonomy_node_count: String(manifest.taxonomy.nodes) } : {}),
  };
}

export interface DatasetInfo {
  datasetVersion: string;
  format: string;
  formatVersion: number;
  compression: Compression;
  parameters: BuildParameters;
  totals: Totals;
  release: Record<string, string> | null;
  sources: SourceEntry[];
  /** The NCBI taxonomy the dataset holds: its nodes and the taxdump files it came from; null without one. */
  taxonomy: { nodes: number; sources: SourceEntry[] } | null;
}

/** Taxdump files among a dataset's sources. */
const isTaxdump = (source: SourceEntry) => /(^|\/)(nodes|names)\.dmp$/.test(source.file);

/** The dataset's version, build parameters, totals, release, input files and taxonomy. */
export function datasetInfo(manifest: Manifest): DatasetInfo {
  return {
    datasetVersion: manifest.datasetVersion,
    format: manifest.format,
    formatVersion: manifest.formatVersion,
    compression: manifest.compression,
    parameters: manifest.parameters,
    totals: manifest.totals,
    release: manifest.release ?? null,
    sources: manifest.sources,
    taxonomy: manifest.taxonomy
      ? { nodes: manifest.taxonomy.nodes, sources: manifest.sources.filter(isTaxdump) }
      : null,
  };
}

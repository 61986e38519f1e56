// The API's answers as the page reads them (/api/v1/search with proteins=true, /api/v1/peptide, /api/v1/info,
// /api/v1/taxa) and their TSV downloads: the columns of `npm run query -- v1 --format tsv` and `… peptide --format
// tsv`, the search's followed by each accession's reviewed flag, protein and organism. No DOM: tested in Node.

export interface ProteinRef {
  acc: string;
  taxId: number;
  reviewed?: boolean;
  protein?: string | null;
  organism?: string | null;
}

export interface Candidate {
  seq: string;
  proforma: string;
  mass: number;
  ppm?: number;
  accsTax: ProteinRef[];
}

export interface SearchAnswer {
  totalResult: number;
  memory: string;
  duration: string;
  page: number;
  pageSize: number;
  /** One object per mass group: `{"<key>": [candidates]}`. */
  result: Record<string, Candidate[]>[];
}

export interface Taxon {
  taxId: number;
  name: string;
  rank: string;
  peptides?: number;
}

export interface PeptideAnswer {
  sequence: string;
  mass: number;
  peptides: { seq: string; accsTax: ProteinRef[] }[];
  lca: Taxon | null;
}

export interface InfoAnswer {
  datasetVersion: string;
  formatVersion: number;
  compression: string;
  parameters: { enzyme: string; missedCleavages: number; minLength: number; maxLength: number };
  totals: {
    proteins: number;
    peptides: number;
    massGroups: number;
    shards: number;
    bytes: number;
    accessions: number;
    reviewedAccessions?: number;
    taxonomyNodes?: number;
  };
  release: Record<string, string> | null;
}

/** A search answer's candidates with their group's key, in answer order. */
export const candidatesOf = (answer: SearchAnswer): { key: string; candidate: Candidate }[] =>
  answer.result.flatMap((group) =>
    Object.entries(group).flatMap(([key, list]) => list.map((candidate) => ({ key, candidate }))),
  );

/** TSV text: tabs and line breaks inside a value become spaces; null is empty. */
const cell = (value: string | number | boolean | null | undefined) => String(value ?? '').replace(/[\t\r\n]/g, ' ');
const row = (values: (string | number | boolean | null | undefined)[]) => values.map(cell).join('\t') + '\n';

export const SEARCH_TSV_HEADER = row([
  'mass',
  'sequence',
  'proforma',
  'modifiedMass',
  'ppm',
  'accession',
  'taxId',
  'reviewed',
  'protein',
  'organism',
]);

/** One row per candidate–accession pair. */
export function searchTsv(answer: SearchAnswer): string {
  let text = SEARCH_TSV_HEADER;
  for (const { key, candidate: c } of candidatesOf(answer)) {
    for (const p of c.accsTax)
      text += row([
        key,
        c.seq,
        c.proforma,
        c.mass.toFixed(6),
        c.ppm,
        p.acc,
        p.taxId,
        p.reviewed,
        p.protein,
        p.organism,
      ]);
  }
  return text;
}

export const PEPTIDE_TSV_HEADER = row(['sequence', 'accession', 'taxId', 'reviewed', 'protein', 'organism']);

/** One row per peptide–accession pair. */
export function peptideTsv(answer: PeptideAnswer): string {
  let text = PEPTIDE_TSV_HEADER;
  for (const { seq, accsTax } of answer.peptides)
    for (const p of accsTax) text += row([seq, p.acc, p.taxId, p.reviewed, p.protein, p.organism]);
  return text;
}

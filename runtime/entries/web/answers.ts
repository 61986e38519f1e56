// The API's answers as the page reads them (/api/v1/search with proteins=true, /api/v1/peptide, /api/v1/info,
// /api/v1/taxa) and their TSV downloads: the columns of `npm run query -- v1 --format tsv` and `… peptide --format
// tsv`, the search's followed by each accession's reviewed flag, protein and organism. The types are the API's own;
// no DOM: tested in Node.
import type { EnvelopeJson } from '../../api/envelope.js';
import { PEPTIDE_TSV_HEADER, type PeptideJson } from '../../api/lookupJson.js';
import { ISOTOPE_TSV_COLUMNS, type IsotopeProteinsEntry } from '../../api/isotopeJson.js';
import { PRECURSOR_TSV_COLUMNS } from '../../api/precursorJson.js';
import { tsvRow as row } from '../../api/tsv.js';
import type { DatasetInfo } from '../../core/lookup/info.js';
import type { Protein } from '../../core/lookup/proteins.js';
import type { Taxon as TaxonJson } from '../../model/taxonomy.js';

/** An accession with its protein, as /api/v1/peptide and /api/v1/search with proteins=true list it. */
export type ProteinRef = Protein;

/** A candidate of /api/v1/search with proteins=true (with isotopeErrors, the isotope error it matched at). */
export type Candidate = IsotopeProteinsEntry;

/** /api/v1/search's answer with proteins=true: one object per mass group, `{"<key>": [candidates]}`. */
export type SearchAnswer = EnvelopeJson<Candidate>;

/** A taxon of /api/v1/taxa (with its peptide count) or a lowest common ancestor (without). */
export type Taxon = Omit<TaxonJson, 'peptides'> & Partial<Pick<TaxonJson, 'peptides'>>;

export type PeptideAnswer = PeptideJson;

export type InfoAnswer = DatasetInfo;

/** A search answer's candidates with their group's key, in answer order. */
export const candidatesOf = (answer: SearchAnswer): { key: string; candidate: Candidate }[] =>
  answer.result.flatMap((group) =>
    Object.entries(group).flatMap(([key, list]) => list.map((candidate) => ({ key, candidate }))),
  );

/** The API's search columns, then each accession's reviewed flag, protein and organism. */
export const SEARCH_TSV_HEADER = row([...PRECURSOR_TSV_COLUMNS, 'reviewed', 'protein', 'organism']);
/** The same for a search with isotope errors: each candidate's isotope error after its ppm, as the API's TSV has it. */
export const SEARCH_ISOTOPE_TSV_HEADER = row([...ISOTOPE_TSV_COLUMNS, 'reviewed', 'protein', 'organism']);

/** Whether an answer's candidates say the isotope error they matched at (the search asked for isotopeErrors). */
export const withIsotopes = (answer: SearchAnswer): boolean =>
  candidatesOf(answer).some(({ candidate }) => candidate.isotopeError !== undefined);

/** One row per candidate–accession pair. */
export function searchTsv(answer: SearchAnswer): string {
  const isotopes = withIsotopes(answer);
  let text = isotopes ? SEARCH_ISOTOPE_TSV_HEADER : SEARCH_TSV_HEADER;
  for (const { key, candidate: c } of candidatesOf(answer)) {
    const head = [key, c.seq, c.proforma, c.mass.toFixed(6), c.ppm, ...(isotopes ? [c.isotopeError] : [])];
    for (const p of c.accsTax) text += row([...head, p.acc, p.taxId, p.reviewed, p.protein, p.organism]);
  }
  return text;
}

export { PEPTIDE_TSV_HEADER };

/** One row per peptide–accession pair. */
export function peptideTsv(answer: PeptideAnswer): string {
  let text = PEPTIDE_TSV_HEADER;
  for (const { seq, accsTax } of answer.peptides)
    for (const p of accsTax) text += row([seq, p.acc, p.taxId, p.reviewed, p.protein, p.organism]);
  return text;
}

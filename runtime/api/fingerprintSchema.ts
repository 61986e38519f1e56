// The OpenAPI schema of a fingerprint's answer (fingerprintJson.ts), written from the core's types: their fields
// required, others allowed (the core's answer may grow fields without breaking a client). Only the OpenAPI
// document imports it, so the page opens without it.
const count = { type: 'integer', minimum: 0 };
const peakIndexes = (description: string) => ({ type: 'array', items: count, description });
const score = {
  type: 'number',
  minimum: 0,
  description: '−10·log10 of the chance of matching at least `matched` of the peaks at random.',
};
const expect = {
  type: 'number',
  minimum: 0,
  description: 'The chance times the contenders tested (`tested`): how many would match so well by chance.',
};

const PEAK = {
  type: 'object',
  required: ['mz', 'mass', 'inWindow'],
  properties: {
    mz: { type: 'number', description: 'The peak as given.' },
    intensity: { type: 'number', description: 'Its intensity, when the list gives intensities.' },
    mass: { type: 'number', description: 'The neutral mass searched (from `ion` or `charge`).' },
    inWindow: {
      ...count,
      description: "The dataset's distinct peptides (every peptide, any filter aside) in its window.",
    },
    error: { type: 'string', description: 'Why it was not searched (no positive mass, too many peptides to examine).' },
    explainedBy: {
      type: 'object',
      required: ['accession', 'proforma'],
      properties: { accession: { type: 'string' }, proforma: { type: 'string' } },
      description: 'The peptide of the best-ranked listed protein that explains it.',
    },
  },
};

const MATCH = {
  type: 'object',
  required: ['peak', 'sequence', 'proforma', 'mass', 'errorPpm', 'errorDa'],
  properties: {
    peak: { ...count, description: 'The peak it explains (an index into `peaks`).' },
    sequence: { type: 'string', pattern: '^[A-Z]+$' },
    proforma: { type: 'string', description: 'The peptide with its modifications (ProForma 2.0).' },
    mass: { type: 'number', description: 'Its modified monoisotopic mass in Da.' },
    errorPpm: { type: 'number', description: "The peak's mass less the peptide's, in ppm of the peptide's." },
    errorDa: { type: 'number', description: "The peak's mass less the peptide's, in Da." },
  },
};

const PROTEIN = {
  type: 'object',
  required: [
    'accession',
    'taxId',
    'reviewed',
    'peptides',
    'matched',
    'score',
    'expect',
    'distinct',
    'distinctScore',
    'sameSet',
    'matches',
    'unmatched',
  ],
  properties: {
    accession: { type: 'string', minLength: 1 },
    taxId: { type: 'integer', minimum: -1 },
    reviewed: { type: 'boolean' },
    peptides: { ...count, description: 'Its peptides in the dataset.' },
    matched: { ...count, description: 'The peaks its peptides explain.' },
    score,
    expect,
    distinct: { ...count, description: 'The peaks it explains that no protein listed above it does.' },
    distinctScore: { type: 'number', minimum: 0, description: 'The score of those on the peaks left to it.' },
    sameSet: {
      type: 'array',
      items: { type: 'string' },
      description: 'Proteins explaining exactly its peaks (accessions): these peaks cannot tell them apart.',
    },
    matches: { type: 'array', items: MATCH, description: 'Its peptides that explain peaks, by peak.' },
    unmatched: peakIndexes('The peaks it does not explain.'),
    sequence: {
      type: 'string',
      description:
        'Its residues, when the dataset holds its sequence (built with `--sequences`); so too the next three.',
    },
    length: { ...count, description: 'Its residues, counted.' },
    coverage: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'The share of its residues its matched peptides cover (sequence coverage; 0.35 is 35 %).',
    },
    covered: {
      type: 'array',
      items: { type: 'array', items: count, minItems: 2, maxItems: 2 },
      description: 'The runs its matched peptides cover: [from, to), 0-based residue positions, ascending.',
    },
  },
};

const TAXON = {
  type: 'object',
  required: ['taxId', 'name', 'rank', 'peptides', 'matched', 'score', 'expect', 'peaks', 'proteins'],
  properties: {
    taxId: { type: 'integer', minimum: 1 },
    name: { type: 'string' },
    rank: { type: 'string', description: "The query's rank." },
    peptides: { ...count, description: "Its peptides: the taxonomy's count of peptides of its subtree." },
    matched: { ...count, description: 'The peaks explained by peptides found only at or below it.' },
    score,
    expect,
    peaks: peakIndexes('Those peaks.'),
    proteins: { type: 'array', items: { type: 'string' }, description: 'Its best-scored proteins (accessions).' },
  },
};

const FINGERPRINT = {
  type: 'object',
  required: ['peaks', 'tested', 'proteins'],
  properties: {
    title: { type: 'string', description: "The list's title: an MGF record's TITLE, an mzML spectrum's id." },
    peaks: {
      type: 'array',
      items: PEAK,
      description: 'The peaks searched (with topPeaks, the most intense), in order.',
    },
    tested: {
      type: 'object',
      required: ['proteins'],
      properties: { proteins: count, taxa: count },
      description:
        "The proteins (kept by the taxon and reviewed filter) and the taxa of the rank (with peptides, within the filter's taxa) a match was possible for: what E-values count.",
    },
    proteins: { type: 'array', items: PROTEIN, description: 'The best proteins, best score first.' },
    organisms: {
      type: 'array',
      items: TAXON,
      description: 'The best taxa of the rank, best score first; absent when the dataset has no taxonomy.',
    },
  },
};

/** The OpenAPI schema of the HTTP answer. */
export const FINGERPRINT_ANSWER_SCHEMA = {
  type: 'object',
  required: ['lists', 'memory', 'duration'],
  additionalProperties: false,
  properties: {
    lists: { type: 'array', items: FINGERPRINT, description: 'One answer per peak list, in the order of the body.' },
    memory: { type: 'string', pattern: '^\\d+ MB$' },
    duration: { type: 'string', pattern: '^\\d{2,}:\\d{2}:\\d{2}\\.\\d{3}$' },
  },
};

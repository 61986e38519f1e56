// The one independent, deliberately plain reference chemistry of the tests: its own FASTA parsing, its own
// residue masses (decimal text, summed as exact integers), its own cleavage rules (the PSI-MS regular expressions,
// evaluated) and digestion (brute force over sub-sequences, for each specificity and with Met clipping), mass keys
// and their Java-style text, and exact key bounds of a typed mass. It imports nothing from the builder or runtime/,
// so it cannot share a bug with them; the brute-force API references (bruteforce.ts, shardReference.ts) weigh
// peptides with it.
import { gunzipSync } from 'node:zlib';

/** Monoisotopic residue masses (Da, 8 decimals) from the elemental formulas; J = I/L. */
export const REFERENCE_RESIDUE_MASS: Readonly<Record<string, string>> = {
  G: '57.02146372', // C2H3NO
  A: '71.03711378', // C3H5NO
  S: '87.03202840', // C3H5NO2
  P: '97.05276385', // C5H7NO
  V: '99.06841391', // C5H9NO
  T: '101.04767847', // C4H7NO2
  C: '103.00918478', // C3H5NOS
  L: '113.08406398', // C6H11NO
  I: '113.08406398', // C6H11NO
  J: '113.08406398', // I or L
  N: '114.04292744', // C4H6N2O2
  D: '115.02694302', // C4H5NO3
  Q: '128.05857751', // C5H8N2O2
  K: '128.09496301', // C6H12N2O
  E: '129.04259309', // C5H7NO3
  M: '131.04048491', // C5H9NOS
  H: '137.05891186', // C6H7N3O
  F: '147.06841391', // C9H9NO
  R: '156.10111102', // C6H12N4O
  Y: '163.06332853', // C9H9NO2
  W: '186.07931295', // C11H10N2O
  U: '150.95363508', // C3H5NOSe (selenocysteine)
  O: '237.14772686', // C12H19N3O2 (pyrrolysine)
};
export const REFERENCE_WATER = '18.0105646837'; // H2O

/** Decimal text to an exact count of 1e-10 Da. */
export function decimalToUnits(text: string): bigint {
  const match = /^(\d+)\.(\d{1,10})$/.exec(text);
  if (!match) throw new Error(`bad decimal ${text}`);
  return BigInt(match[1]) * 10_000_000_000n + BigInt(match[2].padEnd(10, '0'));
}

// Residue masses as integer 1e-10 Da units by char code. Each is below 2.4e12 units, so a sum of even
// thousands of residues stays far below 2^53: plain integer arithmetic on Numbers is exact (checked below).
const RESIDUE_UNITS: number[] = new Array(128).fill(-1);
for (const [letter, mass] of Object.entries(REFERENCE_RESIDUE_MASS))
  RESIDUE_UNITS[letter.charCodeAt(0)] = Number(decimalToUnits(mass));
const WATER_UNITS = Number(decimalToUnits(REFERENCE_WATER));

/** Peptide mass with water in 1e-10 Da units (an exact integer), or null when a residue has no defined mass. */
export function referenceUnits(peptide: string): number | null {
  let units = WATER_UNITS;
  for (let i = 0; i < peptide.length; i++) {
    const r = RESIDUE_UNITS[peptide.charCodeAt(i)] ?? -1;
    if (r < 0) return null;
    units += r;
  }
  if (!Number.isSafeInteger(units)) throw new Error(`${peptide}: mass beyond exact integer range`);
  return units;
}

/** Mass rounded half-up to 0.0001 Da, as an integer count of 0.0001 Da (exact, in BigInt). */
export function referenceKey(units: number): number {
  return Number((BigInt(units) + 500_000n) / 1_000_000n);
}

/** Mass key (0.0001 Da, rounded half up) of a peptide with water, or null if a letter has no mass. */
export function referencePeptideKey(peptide: string): number | null {
  const units = referenceUnits(peptide);
  return units === null ? null : referenceKey(units);
}

/** A key as Java's Double.toString writes key / 10^4: shortest round-trip decimal, at least one decimal. */
export function referenceKeyText(key: number): string {
  const text = String(key / 10_000);
  return text.includes('.') ? text : `${text}.0`;
}

/** An exact non-negative decimal `num / 10^scale`, from text like " 1234.5678e-1 ", or null. */
export function referenceDecimal(text: string): { num: bigint; scale: number } | null {
  const m = /^[ \t\n\r]*\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?[ \t\n\r]*$/.exec(text);
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return null;
  const digits = `${m[1]}${m[2] ?? ''}`;
  let scale = (m[2] ?? '').length - Number(m[3] ?? 0);
  let num = BigInt(digits || '0');
  if (scale < 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { num, scale };
}

/** Smallest key >= the decimal (ceil) and largest key <= it (floor), in 0.0001 Da. */
export function keyBounds(d: { num: bigint; scale: number }): { ceil: bigint; floor: bigint } {
  // key >= num / 10^scale  <=>  key * 10^scale >= num * 10^4
  const numerator = d.num * 10_000n;
  const denominator = 10n ** BigInt(d.scale);
  const floor = numerator / denominator;
  return { floor, ceil: floor * denominator === numerator ? floor : floor + 1n };
}

/**
 * Key bounds of a typed mass, exactly: ceilKey = smallest key whose mass is >= the text, floorKey = largest
 * key whose mass is <= it. Throws on text that is not a decimal number.
 */
export function referenceKeyBounds(text: string): { ceilKey: number; floorKey: number } {
  const decimal = referenceDecimal(text);
  if (!decimal) throw new Error(`referenceKeyBounds: ${text}`);
  const { ceil, floor } = keyBounds(decimal);
  return { ceilKey: Number(ceil), floorKey: Number(floor) };
}

/**
 * An enzyme as its cleavage agent's regular expression in the PSI-MS controlled vocabulary (psi-ms.obo 4.1.28,
 * `has_regexp`), or in OpenMS's CHEMISTRY/Enzymes.xml for the three PSI-MS has no term for: a zero-width pattern
 * that matches between two residues where the enzyme cuts.
 */
export interface ReferenceEnzyme {
  term: string;
  regex: string;
}

export const REFERENCE_ENZYMES: Readonly<Record<string, ReferenceEnzyme>> = {
  trypsin: { term: 'MS:1001251 Trypsin', regex: '(?<=[KR])(?!P)' },
  'trypsin/p': { term: 'MS:1001313 Trypsin/P', regex: '(?<=[KR])' },
  'arg-c': { term: 'MS:1001303 Arg-C', regex: '(?<=R)(?!P)' },
  'arg-c/p': { term: 'OpenMS Arg-C/P', regex: '(?<=[RX])' },
  'asp-n': { term: 'MS:1001304 Asp-N', regex: '(?=[BD])' },
  chymotrypsin: { term: 'MS:1001306 Chymotrypsin', regex: '(?<=[FYWL])(?!P)' },
  'chymotrypsin/p': { term: 'OpenMS Chymotrypsin/P', regex: '(?<=[FYWLJX])' },
  cnbr: { term: 'MS:1001307 CNBr', regex: '(?<=M)' },
  'glu-c': { term: 'MS:1001314 V8-DE', regex: '(?<=[BDEZ])(?!P)' },
  'glu-c/e': { term: 'MS:1001315 V8-E', regex: '(?<=[EZ])(?!P)' },
  'lys-c': { term: 'MS:1001309 Lys-C', regex: '(?<=K)(?!P)' },
  'lys-c/p': { term: 'MS:1001310 Lys-C/P', regex: '(?<=K)' },
  'lys-n': { term: 'OpenMS Lys-N', regex: '(?=[KX])' },
  pepsina: { term: 'MS:1001311 PepsinA', regex: '(?<=[FL])' },
};

/** Ambiguity codes (B = D/N, J = I/L, X = any, Z = E/Q): they never cut, so they are dropped from the patterns. */
const AMBIGUITY = /[BJXZ]/g;

/** The pattern with the ambiguity codes taken out of its character classes ([BD] becomes [D]). */
export function referenceCutPattern(enzyme: ReferenceEnzyme): RegExp {
  return new RegExp(
    enzyme.regex.replace(/\[([^\]]*)\]/g, (_, letters: string) => `[${letters.replace(AMBIGUITY, '')}]`),
    'g',
  );
}

/** Where the protein is cut: 0, each position between two residues that the pattern matches, the protein's length. */
export function referenceBoundaries(protein: string, enzyme: ReferenceEnzyme): number[] {
  const boundaries = [0];
  for (const match of protein.matchAll(referenceCutPattern(enzyme)))
    if (match.index > 0 && match.index < protein.length) boundaries.push(match.index);
  if (protein.length > 0) boundaries.push(protein.length);
  return boundaries;
}

/** The protein cut into pieces at every cleavage site. */
export function referencePieces(protein: string, enzyme: ReferenceEnzyme): string[] {
  const boundaries = referenceBoundaries(protein, enzyme);
  return boundaries.slice(1).map((end, i) => protein.slice(boundaries[i], end));
}

/** How a digestion picks its peptides, beside the enzyme, missed cleavages and length range. */
export interface ReferenceDigestOptions {
  /** full: both ends at a cleavage site or protein terminus; semi: one end at least; none: any sub-sequence. */
  specificity?: 'full' | 'semi' | 'none';
  /** A protein starting with M is also a protein without it: position 1 is a protein N-terminus too. */
  clipMet?: boolean;
}

/** A peptide's places, as bits: it starts the protein (at 0, or at 1 when the Met is clipped); it lies elsewhere. */
export const REFERENCE_AT_START = 1;
export const REFERENCE_INSIDE = 2;

/**
 * Every distinct peptide of the protein with its places, by brute force over every (start, end): kept when its
 * length is within [min, max], every residue has a mass, and the specificity's test passes. Cleavage sites are the
 * enzyme's cut positions strictly inside the protein; a start may also be a protein N-terminus (0, and 1 when the
 * Met is clipped), an end the C-terminus. full: start and end both so, at most `missed` sites strictly inside;
 * semi: start or end so, at most `missed` sites strictly inside; none: no further test.
 */
export function referencePeptides(
  protein: string,
  enzyme: ReferenceEnzyme,
  missed: number,
  min: number,
  max: number,
  { specificity = 'full', clipMet = false }: ReferenceDigestOptions = {},
): Map<string, number> {
  const n = protein.length;
  const isSite = new Uint8Array(n + 1);
  for (const b of referenceBoundaries(protein, enzyme)) if (b > 0 && b < n) isSite[b] = 1;
  const sitesBefore = new Uint32Array(n + 2); // sitesBefore[i]: sites at positions below i
  for (let i = 0; i <= n; i++) sitesBefore[i + 1] = sitesBefore[i] + isSite[i];
  const clipped = clipMet && protein.startsWith('M') && n > 1;
  const isStart = (s: number) => s === 0 || (clipped && s === 1) || isSite[s] === 1;
  const isEnd = (e: number) => e === n || isSite[e] === 1;
  const places = new Map<string, number>();
  for (let start = 0; start < n; start++) {
    if (specificity === 'full' && !isStart(start)) continue; // no end can make it full: spares the inner loop
    // Lengths above max are never kept: ends stop there.
    for (let end = start + 1; end <= n && end - start <= max; end++) {
      const inside = sitesBefore[end] - sitesBefore[start + 1]; // sites s with start < s < end
      // Sites inside only grow with the end: past `missed` no further end can make it full or semi.
      if (specificity !== 'none' && inside > missed) break;
      if (end - start < min) continue;
      if (specificity === 'full' && !isEnd(end)) continue; // never full: spares the tests below
      const kept = (startOk: boolean) =>
        specificity === 'none' ||
        (inside <= missed && (specificity === 'full' ? startOk && isEnd(end) : startOk || isEnd(end)));
      if (!kept(isStart(start))) continue;
      const peptide = protein.slice(start, end);
      if (referenceUnits(peptide) === null) continue;
      // After a clipped Met the peptide starts the protein; it lies inside the Met-keeping protein too when that
      // protein's digestion gives it as well.
      const afterMet = clipped && start === 1;
      const place =
        start === 0
          ? REFERENCE_AT_START
          : afterMet
            ? REFERENCE_AT_START | (kept(isSite[1] === 1) ? REFERENCE_INSIDE : 0)
            : REFERENCE_INSIDE;
      places.set(peptide, (places.get(peptide) ?? 0) | place);
    }
  }
  return places;
}

/** The distinct peptides of referencePeptides (fully specific, Met kept, unless `options` says otherwise). */
export function referenceDigest(
  protein: string,
  enzyme: ReferenceEnzyme,
  missed: number,
  min: number,
  max: number,
  options: ReferenceDigestOptions = {},
): Set<string> {
  return new Set(referencePeptides(protein, enzyme, missed, min, max, options).keys());
}

export interface ReferenceProtein {
  accession: string;
  taxId: number | null;
  sequence: string;
}

/** Parses (gzip or plain) FASTA bytes: UniProt `sp|ACC|...` or first-token accessions, OX= taxIds. */
export function referenceFasta(bytes: Uint8Array): ReferenceProtein[] {
  const isGzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const text = Buffer.from(isGzip ? gunzipSync(bytes) : bytes).toString('latin1');
  const proteins: ReferenceProtein[] = [];
  let current: { header: string; lines: string[] } | null = null;
  const close = () => {
    if (!current) return;
    const parts = current.header.split('|');
    const accession =
      (parts[0] === 'sp' || parts[0] === 'tr') && parts.length >= 3 ? parts[1] : current.header.trim().split(/\s+/)[0];
    const ox = current.header.split(/\s+/).find((word) => word.startsWith('OX='));
    const sequence = current.lines.join('').replace(/\s/g, '').toUpperCase().replace(/\*$/, '');
    proteins.push({ accession, taxId: ox ? Number(ox.slice(3)) : null, sequence });
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('>')) {
      close();
      current = { header: line.slice(1).replace(/\r$/, ''), lines: [] };
    } else if (current) current.lines.push(line);
  }
  close();
  return proteins;
}

export interface ReferencePeptide {
  key: number;
  accessions: string[];
  taxIds: number[];
}

/**
 * What a dataset built from `proteins` must hold: every distinct peptide with its mass key and its sorted
 * accessions with their taxIds (the first record of an accession gives its taxId; -1 when it has none).
 */
export function referenceDataset(
  proteins: readonly ReferenceProtein[],
  enzyme: string,
  missed: number,
  min: number,
  max: number,
  options: ReferenceDigestOptions = {},
): Map<string, ReferencePeptide> {
  const taxIdOf = new Map<string, number>();
  const dataset = new Map<string, ReferencePeptide>();
  for (const protein of proteins) {
    if (!taxIdOf.has(protein.accession)) taxIdOf.set(protein.accession, protein.taxId ?? -1);
    // The distinct peptides of referenceDigest, read off the map's keys.
    for (const peptide of referencePeptides(
      protein.sequence,
      REFERENCE_ENZYMES[enzyme],
      missed,
      min,
      max,
      options,
    ).keys()) {
      const entry = dataset.get(peptide);
      if (entry === undefined)
        dataset.set(peptide, {
          key: referenceKey(referenceUnits(peptide)!),
          accessions: [protein.accession],
          taxIds: [],
        });
      else if (!entry.accessions.includes(protein.accession)) entry.accessions.push(protein.accession);
    }
  }
  for (const entry of dataset.values()) {
    entry.accessions.sort();
    entry.taxIds = entry.accessions.map((a) => taxIdOf.get(a)!);
  }
  return dataset;
}

/** First index of ascending `sorted` holding a value >= key (binary search). */
export function lowerBound(sorted: ArrayLike<number>, key: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

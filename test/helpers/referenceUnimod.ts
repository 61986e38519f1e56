// An independent Unimod table for the precursor-search reference: each modification's monoisotopic delta is
// derived here from its elemental composition with this file's own isotope masses, rounded to 6 decimals as
// Unimod publishes it, and checked against the published value written next to it. Imports nothing from
// builder/ or runtime/.

/** Isotope masses (Da, exact decimal text). Element symbols without a mass number are the lightest isotope. */
export const REFERENCE_ISOTOPE_MASS: Readonly<Record<string, string>> = {
  H: '1.00782503207',
  '2H': '2.0141017778',
  C: '12',
  '13C': '13.00335483778',
  N: '14.0030740048',
  '15N': '15.0001088982',
  O: '15.99491461956',
  P: '30.97376163',
  S: '31.97207100',
  Na: '22.9897692809',
};

export interface ReferenceUnimodEntry {
  /** Unimod title, as Unimod spells it. */
  title: string;
  /** Unimod record id (UNIMOD:<accession>). */
  accession: number;
  /** Elemental composition, Unimod's notation: `H(3) C(2) N O`. */
  composition: string;
  /** Monoisotopic delta as Unimod publishes it (6 decimals at most). */
  published: string;
}

export const REFERENCE_UNIMOD: readonly ReferenceUnimodEntry[] = [
  { title: 'Acetyl', accession: 1, composition: 'H(2) C(2) O', published: '42.010565' },
  { title: 'Carbamidomethyl', accession: 4, composition: 'H(3) C(2) N O', published: '57.021464' },
  { title: 'Carbamyl', accession: 5, composition: 'H C N O', published: '43.005814' },
  { title: 'Deamidated', accession: 7, composition: 'H(-1) N(-1) O', published: '0.984016' },
  { title: 'Phospho', accession: 21, composition: 'H O(3) P', published: '79.966331' },
  { title: 'Gln->pyro-Glu', accession: 28, composition: 'H(-3) N(-1)', published: '-17.026549' },
  { title: 'Glu->pyro-Glu', accession: 27, composition: 'H(-2) O(-1)', published: '-18.010565' },
  { title: 'Methyl', accession: 34, composition: 'H(2) C', published: '14.01565' },
  { title: 'Oxidation', accession: 35, composition: 'O', published: '15.994915' },
  { title: 'Dimethyl', accession: 36, composition: 'H(4) C(2)', published: '28.0313' },
  { title: 'GG', accession: 121, composition: 'H(6) C(4) N(2) O(2)', published: '114.042927' },
  { title: 'Label:13C(6)15N(2)', accession: 259, composition: 'C(-6) 13C(6) N(-2) 15N(2)', published: '8.014199' },
  { title: 'Label:13C(6)15N(4)', accession: 267, composition: 'C(-6) 13C(6) N(-4) 15N(4)', published: '10.008269' },
  { title: 'Label:2H(4)', accession: 481, composition: 'H(-4) 2H(4)', published: '4.025107' },
  { title: 'TMT6plex', accession: 737, composition: 'H(20) C(8) 13C(4) N 15N O(2)', published: '229.162932' },
];

/** Decimal text (optionally signed) times 10^scale, exactly. */
function scaled(text: string, scale: number): bigint {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[3] ?? '').length > scale) throw new Error(`bad decimal ${text} for scale ${scale}`);
  const value = BigInt(match[2] + (match[3] ?? '').padEnd(scale, '0'));
  return match[1] === '-' ? -value : value;
}

const ISOTOPE_SCALE = 11; // the isotope masses have at most 11 decimals

/** Exact mass of a composition, in units of 1e-11 Da. */
export function compositionMass(composition: string): bigint {
  let total = 0n;
  for (const part of composition.trim().split(/\s+/)) {
    const match = /^(\d*[A-Z][a-z]?)(?:\((-?\d+)\))?$/.exec(part);
    if (!match) throw new Error(`bad composition part ${part}`);
    const mass = REFERENCE_ISOTOPE_MASS[match[1]];
    if (mass === undefined) throw new Error(`no isotope mass for ${match[1]}`);
    total += BigInt(match[2] ?? '1') * scaled(mass, ISOTOPE_SCALE);
  }
  return total;
}

/** A composition's delta rounded half away from zero to 6 decimals, as an integer count of 1e-6 Da. */
export function derivedMicro(composition: string): bigint {
  const exact = compositionMass(composition); // 1e-11 Da
  const step = 10n ** BigInt(ISOTOPE_SCALE - 6);
  const magnitude = exact < 0n ? -exact : exact;
  const rounded = (magnitude + step / 2n) / step;
  return exact < 0n ? -rounded : rounded;
}

/** The published delta as an integer count of 1e-6 Da. */
export function publishedMicro(entry: ReferenceUnimodEntry): bigint {
  return scaled(entry.published, 6);
}

/** Micro-Da text with 6 decimals, signed when negative (for messages). */
export function microText(micro: bigint): string {
  const magnitude = micro < 0n ? -micro : micro;
  return `${micro < 0n ? '-' : ''}${magnitude / 1_000_000n}.${String(magnitude % 1_000_000n).padStart(6, '0')}`;
}

/** Entries whose derived delta is not the published one (empty when the table is consistent). */
export function unimodDisagreements(): string[] {
  return REFERENCE_UNIMOD.filter((e) => derivedMicro(e.composition) !== publishedMicro(e)).map(
    (e) =>
      `${e.title}: ${e.composition} gives ${microText(derivedMicro(e.composition))}, Unimod publishes ${e.published}`,
  );
}

/** The entry of a title (case-insensitive) or of `UNIMOD:<accession>`; undefined when not in the table. */
export function findUnimod(name: string): ReferenceUnimodEntry | undefined {
  const accession = /^unimod:(\d+)$/i.exec(name);
  if (accession) return REFERENCE_UNIMOD.find((e) => e.accession === Number(accession[1]));
  return REFERENCE_UNIMOD.find((e) => e.title.toLowerCase() === name.toLowerCase());
}

/** A delta in 1e-10 Da units: the published 6-decimal value (checked equal to the derived one). */
export function unimodUnits(entry: ReferenceUnimodEntry): bigint {
  const micro = derivedMicro(entry.composition);
  if (micro !== publishedMicro(entry))
    throw new Error(`${entry.title}: derived ${microText(micro)} is not the published ${entry.published}`);
  return micro * 10_000n;
}

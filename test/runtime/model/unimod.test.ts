// Tests runtime/model/unimod.ts: every row's delta against the mass of its composition string, computed here
// exactly (BigInt, units of 1e-11 Da) from our own isotope tables and rounded half away from zero to 6
// decimals; titles (case-insensitively) and accessions unique; the 17 titles the README lists present; and,
// where Debian's openms-common is installed, every row against the unimod.xml it cites as its source.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UNIMOD_ROWS } from '../../../runtime/model/unimod.js';
import { REFERENCE_ISOTOPE_MASS } from '../../helpers/referenceUnimod.js';

/** Exact decimal text to BigInt units of 1e-`digits`; throws when the text has more decimals. */
function fixedPoint(text: string, digits: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[3] ?? '').length > digits)
    throw new Error(`not a decimal with at most ${digits} decimals: ${text}`);
  const units = BigInt(match[2]) * 10n ** BigInt(digits) + BigInt((match[3] ?? '').padEnd(digits, '0') || '0');
  return match[1] === '-' ? -units : units;
}

/** Isotope masses (Da): NIST (AME2003), the same source as chemistry.ts. */
const NIST = REFERENCE_ISOTOPE_MASS;

/**
 * Unimod's own element masses (the `<umod:elem ... mono_mass=...>` lines of unimod.xml, e.g. H 1.007825035,
 * O 15.99491463, Na 22.9897677): the masses Unimod's published deltas are computed from.
 */
const UNIMOD_ELEMENTS: Record<string, string> = {
  H: '1.007825035',
  '2H': '2.014101779',
  C: '12',
  '13C': '13.00335483',
  N: '14.003074',
  '15N': '15.00010897',
  O: '15.99491463',
  P: '30.973762',
  S: '31.9720707',
  Na: '22.9897677',
};

const DIGITS = 11; // every isotope mass above has at most 11 decimals: sums in 1e-11 Da are exact

/** Bricks in element counts: Hex = C6H10O5, HexNAc = C8H13NO5. */
const BRICKS: Record<string, Record<string, number>> = {
  Hex: { C: 6, H: 10, O: 5 },
  HexNAc: { C: 8, H: 13, N: 1, O: 5 },
};

/** Element counts of a Unimod composition string ("H(3) C(2) N O", "13C(4)", "S(-1)", "HexNAc"). */
function counts(composition: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const token of composition.split(' ')) {
    const match = /^(\d*[A-Z][a-zA-Z]*)(?:\((-?\d+)\))?$/.exec(token);
    if (!match) throw new Error(`composition token ${JSON.stringify(token)}`);
    const n = Number(match[2] ?? '1');
    const parts = BRICKS[match[1]] ?? { [match[1]]: 1 };
    for (const [symbol, k] of Object.entries(parts)) out[symbol] = (out[symbol] ?? 0) + n * k;
  }
  return out;
}

/** Mass of a composition in 1e-11 Da with the given isotope table. */
function compositionMass(composition: string, table: Record<string, string>): bigint {
  let total = 0n;
  for (const [symbol, n] of Object.entries(counts(composition))) {
    if (table[symbol] === undefined) throw new Error(`no mass for ${symbol}`);
    total += BigInt(n) * fixedPoint(table[symbol], DIGITS);
  }
  return total;
}

/** 1e-11 Da units rounded half away from zero to 1e-6 Da units. */
function toMicro(units: bigint): bigint {
  const step = 10n ** BigInt(DIGITS - 6);
  const magnitude = units < 0n ? -units : units;
  const rounded = (magnitude + step / 2n) / step;
  return units < 0n ? -rounded : rounded;
}

/**
 * Rows whose published delta differs by one in the 6th decimal from the composition's mass with the NIST
 * isotopes above (each agrees exactly with Unimod's own element masses, see the last test): Unimod rounds
 * its own sums. Our rounding → published: TMTpro 304.207145 → .207146, iTRAQ4plex 144.102062 → .102063,
 * iTRAQ8plex 304.205359 → .205360, Hex 162.052823 → .052824, Cation:Na 21.981944 → .981943,
 * Biotin 226.077599 → .077598.
 */
const UNIMOD_ROUNDING = new Set(['TMTpro', 'iTRAQ4plex', 'iTRAQ8plex', 'Hex', 'Cation:Na', 'Biotin']);

describe('UNIMOD_ROWS', () => {
  it('has well-formed rows: a positive integer accession, a title, a delta of at most 6 decimals, a composition', () => {
    expect(UNIMOD_ROWS.length).toBe(17 + 29); // docs/api.md: the 17 titles "and 29 more"
    for (const [accession, title, delta, composition] of UNIMOD_ROWS) {
      expect(Number.isInteger(accession) && accession > 0, title).toBe(true);
      expect(title.trim(), String(accession)).toBe(title);
      expect(title.length, String(accession)).toBeGreaterThan(0);
      expect(delta, title).toMatch(/^-?\d+(\.\d{1,6})?$/);
      expect(() => counts(composition), title).not.toThrow();
    }
  });

  it('gives every delta as its composition weighs with the NIST isotopes, rounded to 6 decimals', () => {
    const differing: string[] = [];
    for (const [, title, delta, composition] of UNIMOD_ROWS) {
      const published = fixedPoint(delta, 6);
      const computed = toMicro(compositionMass(composition, NIST));
      const difference = published - computed;
      if (difference !== 0n) differing.push(title);
      expect(
        difference === 0n || (UNIMOD_ROUNDING.has(title) && (difference === 1n || difference === -1n)),
        `${title}: published ${delta}, computed ${computed} µDa`,
      ).toBe(true);
    }
    // Exactly the listed rows differ: a new discrepancy (or a fixed one) shows up here.
    expect(differing.sort()).toEqual([...UNIMOD_ROUNDING].sort());
  });

  it("gives every delta exactly as its composition weighs with Unimod's own element masses", () => {
    for (const [, title, delta, composition] of UNIMOD_ROWS) {
      expect(toMicro(compositionMass(composition, UNIMOD_ELEMENTS)), title).toBe(fixedPoint(delta, 6));
    }
  });

  it('spot-checks hand-summed deltas', () => {
    // Oxidation = O; Carbamidomethyl = H3 C2 N O; Gln->pyro-Glu = −(H3 N); Hex = C6 H10 O5.
    const byTitle = new Map(UNIMOD_ROWS.map((row) => [row[1], row]));
    expect(byTitle.get('Oxidation')![2]).toBe('15.994915'); // 15.99491461956
    expect(byTitle.get('Carbamidomethyl')![2]).toBe('57.021464'); // 3.02347509621 + 24 + 14.0030740048 + 15.99491461956 = 57.02146372057
    expect(byTitle.get('Gln->pyro-Glu')![2]).toBe('-17.026549'); // −(3.02347509621 + 14.0030740048) = −17.02654910101
    expect(byTitle.get('Phospho')![2]).toBe('79.966331'); // 1.00782503207 + 47.98474385868 + 30.97376163 = 79.96633052075
  });

  it('has titles of printable ASCII without a quote or backslash: ProForma is written byte for byte into JSON and TSV', () => {
    for (const [, title] of UNIMOD_ROWS) expect(title, title).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
  });

  it('has unique titles (case-insensitively, as queries look them up) and unique accessions', () => {
    const titles = UNIMOD_ROWS.map((row) => row[1].toLowerCase());
    expect(new Set(titles).size).toBe(titles.length);
    const accessions = UNIMOD_ROWS.map((row) => row[0]);
    expect(new Set(accessions).size).toBe(accessions.length);
  });

  it('holds the 17 titles the README lists, spelt exactly', () => {
    const titles = new Set(UNIMOD_ROWS.map((row) => row[1]));
    const required = [
      'Carbamidomethyl',
      'Oxidation',
      'Phospho',
      'Acetyl',
      'Deamidated',
      'Gln->pyro-Glu',
      'Glu->pyro-Glu',
      'Methyl',
      'Dimethyl',
      'TMT6plex',
      'TMTpro',
      'iTRAQ4plex',
      'iTRAQ8plex',
      'Label:13C(6)15N(2)',
      'Label:13C(6)15N(4)',
      'GG',
      'Carbamyl',
    ];
    expect(required.length).toBe(17);
    for (const title of required) expect(titles.has(title), title).toBe(true);
  });

  it('gives the accessions Unimod gives the best-known titles', () => {
    const accession = new Map(UNIMOD_ROWS.map((row) => [row[1], row[0]]));
    const known: [string, number][] = [
      ['Acetyl', 1],
      ['Carbamidomethyl', 4],
      ['Phospho', 21],
      ['Oxidation', 35],
      ['TMT6plex', 737],
      ['TMTpro', 2016],
      ['iTRAQ4plex', 214],
      ['GG', 121],
    ];
    for (const [title, n] of known) expect(accession.get(title), title).toBe(n);
  });

  const UNIMOD_XML = '/usr/share/openms/CHEMISTRY/unimod.xml';
  it.skipIf(!existsSync(UNIMOD_XML))(
    'matches unimod.xml, its cited source: record_id, title, mono_mass and composition of each row',
    () => {
      const xml = readFileSync(UNIMOD_XML, 'utf8');
      const unescapeXml = (text: string) => text.replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
      const entries = new Map<string, { recordId: number; mono: string; composition: string }>();
      for (const mod of xml.split('<umod:mod ').slice(1)) {
        const title = /^title="([^"]*)"/.exec(mod);
        const recordId = /record_id="(\d+)"/.exec(mod);
        const delta = /<umod:delta mono_mass="([^"]*)"[^>]*composition="([^"]*)"/.exec(mod);
        if (title && recordId && delta)
          entries.set(unescapeXml(title[1]), { recordId: Number(recordId[1]), mono: delta[1], composition: delta[2] });
      }
      expect(entries.size).toBeGreaterThan(500);
      for (const [accession, title, delta, composition] of UNIMOD_ROWS) {
        const entry = entries.get(title);
        expect(entry, title).toBeDefined();
        expect(entry!.recordId, title).toBe(accession);
        expect(fixedPoint(entry!.mono, 6), title).toBe(fixedPoint(delta, 6));
        expect(entry!.composition, title).toBe(composition);
      }
    },
  );
});

// Tests runtime/model/modifications.ts: parseModifications (Unimod titles case-insensitively, UNIMOD:n, custom
// signed masses, every site form, merging of residue sites, each refusal and its message), deltaUnits (exact
// integer units), siteText/specText, sitesOverlap (truth table), residueSlot and slotCount on hand-made peptides.
import { describe, expect, it } from 'vitest';
import {
  deltaUnits,
  MAX_MODIFICATIONS,
  ModificationError,
  parseModifications,
  residueSlot,
  siteText,
  sitesOverlap,
  slotCount,
  specText,
  type Site,
} from '../../../runtime/model/modifications.js';

const residues = (letters: string): Site => ({ kind: 'residues', letters });
const terminus = (end: 'N' | 'C'): Site => ({ kind: 'terminus', end });
const terminalResidue = (letter: string, end: 'N' | 'C'): Site => ({ kind: 'terminal residue', end, letter });

/** The message of the ModificationError a list is refused with. */
function refusal(text: string): string {
  try {
    parseModifications(text);
  } catch (e) {
    if (!(e instanceof ModificationError)) throw e;
    return e.message;
  }
  throw new Error(`no refusal for ${JSON.stringify(text)}`);
}

const UNKNOWN_HINT =
  'use a Unimod title (e.g. Carbamidomethyl, Oxidation, Phospho), UNIMOD:<accession>, or Name:+12.3456 for a custom mass';
const SITE_HINT =
  'is not residue letters (e.g. STY), N-term, C-term, Protein N-term or a residue at a terminus (Q@N-term)';
const ITEM_HINT = 'is not Name@Sites (e.g. Carbamidomethyl@C, Oxidation@M, TMT6plex@N-term)';

describe('deltaUnits', () => {
  it('turns signed decimal text into exact integer units of 1e-10 Da', () => {
    expect(deltaUnits('57.021464')).toBe(570_214_640_000);
    expect(deltaUnits('-17.026549')).toBe(-170_265_490_000);
    expect(deltaUnits('+12.3456')).toBe(123_456_000_000);
    expect(deltaUnits('0.984016')).toBe(9_840_160_000);
    expect(deltaUnits('14.01565')).toBe(140_156_500_000);
    expect(deltaUnits('0.0000000001')).toBe(1);
    expect(deltaUnits('-0.0000000001')).toBe(-1);
    expect(deltaUnits('229.1629321346')).toBe(2_291_629_321_346);
    expect(deltaUnits('10000')).toBe(100_000_000_000_000);
    expect(deltaUnits('0')).toBe(0);
    expect(deltaUnits('007.5')).toBe(75_000_000_000);
  });

  it('is exact where doubles are not: 0.1 + 0.2 in units is 3e9, and sums of deltas stay integers', () => {
    expect(deltaUnits('0.1')! + deltaUnits('0.2')!).toBe(deltaUnits('0.3'));
    expect(deltaUnits('79.966331')! * 3 + deltaUnits('15.994915')!).toBe(2_558_939_080_000);
  });

  it('is undefined past 10 decimals and for anything but signed decimal digits', () => {
    for (const text of [
      '1.12345678901',
      '0.00000000001',
      '',
      '+',
      '-',
      '1.',
      '.5',
      '1e3',
      ' 1',
      '1 ',
      '1,5',
      'abc',
      '--1',
      '+-1',
      'NaN',
      'Infinity',
      '0x10',
    ]) {
      expect(deltaUnits(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});

describe('parseModifications: names', () => {
  it('reads a Unimod title with its accession, delta text and units', () => {
    expect(parseModifications('Carbamidomethyl@C')).toEqual([
      {
        modification: { name: 'Carbamidomethyl', accession: 4, delta: '57.021464', deltaUnits: 570_214_640_000 },
        site: residues('C'),
      },
    ]);
    expect(parseModifications('Gln->pyro-Glu@Q@N-term')).toEqual([
      {
        modification: { name: 'Gln->pyro-Glu', accession: 28, delta: '-17.026549', deltaUnits: -170_265_490_000 },
        site: terminalResidue('Q', 'N'),
      },
    ]);
  });

  it('reads titles case-insensitively and writes them as Unimod spells them', () => {
    for (const text of ['oxidation@M', 'OXIDATION@M', 'oXiDaTiOn@m']) {
      const [spec] = parseModifications(text);
      expect(spec.modification.name, text).toBe('Oxidation');
      expect(spec.modification.accession, text).toBe(35);
    }
    expect(parseModifications('label:13c(6)15n(2)@K')[0].modification).toMatchObject({
      name: 'Label:13C(6)15N(2)',
      accession: 259,
      delta: '8.014199',
    });
    expect(parseModifications('itraq4plex@K')[0].modification.name).toBe('iTRAQ4plex');
  });

  it('reads UNIMOD:<accession> (any case) as the titled entry', () => {
    expect(parseModifications('UNIMOD:35@M')[0].modification).toEqual({
      name: 'Oxidation',
      accession: 35,
      delta: '15.994915',
      deltaUnits: 159_949_150_000,
    });
    expect(parseModifications('unimod:21@S')[0].modification).toMatchObject({ name: 'Phospho', accession: 21 });
    expect(parseModifications('UNIMOD:737@K')[0].modification).toMatchObject({ name: 'TMT6plex', accession: 737 });
  });

  it('refuses an accession the table does not hold, and UNIMOD: without digits', () => {
    expect(refusal('UNIMOD:99999@M')).toBe(`unknown modification "UNIMOD:99999" in "UNIMOD:99999@M": ${UNKNOWN_HINT}`);
    expect(refusal('UNIMOD:@M')).toBe(`unknown modification "UNIMOD:" in "UNIMOD:@M": ${UNKNOWN_HINT}`);
  });

  it('reads a custom Name:+mass or Name:-mass with no accession, its delta unsigned when positive', () => {
    expect(parseModifications('MyTag:+12.3456@K')).toEqual([
      { modification: { name: 'MyTag', delta: '12.3456', deltaUnits: 123_456_000_000 }, site: residues('K') },
    ]);
    expect(parseModifications('Loss:-18.0105646837@C-term')).toEqual([
      { modification: { name: 'Loss', delta: '-18.0105646837', deltaUnits: -180_105_646_837 }, site: terminus('C') },
    ]);
    expect(parseModifications('Heavy:+10000@K')[0].modification.deltaUnits).toBe(100_000_000_000_000);
    expect(parseModifications('Light:-10000@K')[0].modification.deltaUnits).toBe(-100_000_000_000_000);
    const [spec] = parseModifications('Tag:+5@K');
    expect(spec.modification.accession).toBeUndefined();
  });

  it('refuses a custom mass with 11 decimals, beyond ±10000 Da, or unsigned', () => {
    const tooPrecise =
      'custom mass +1.12345678901 in "Tag:+1.12345678901@S" must be a signed number within ±10000 Da with at most 10 decimals';
    expect(refusal('Tag:+1.12345678901@S')).toBe(tooPrecise);
    expect(refusal('Tag:+10000.0000000001@S')).toBe(
      'custom mass +10000.0000000001 in "Tag:+10000.0000000001@S" must be a signed number within ±10000 Da with at most 10 decimals',
    );
    expect(refusal('Tag:-10001@S')).toMatch(
      /^custom mass -10001 in "Tag:-10001@S" must be a signed number within ±10000 Da/,
    );
    // Without a sign it is not a custom mass at all, so the name is unknown.
    expect(refusal('Tag:12.5@S')).toBe(`unknown modification "Tag:12.5" in "Tag:12.5@S": ${UNKNOWN_HINT}`);
  });

  it('refuses an unknown name, quoting it and the item', () => {
    expect(refusal('Carbamidomethy@C')).toBe(
      `unknown modification "Carbamidomethy" in "Carbamidomethy@C": ${UNKNOWN_HINT}`,
    );
    expect(refusal('Oxidation@M,Phosphorylation@S')).toBe(
      `unknown modification "Phosphorylation" in "Phosphorylation@S": ${UNKNOWN_HINT}`,
    );
  });
});

describe('parseModifications: sites', () => {
  const siteOf = (text: string) => parseModifications(text)[0].site;

  it('reads residue letters, upper or lower case, sorted and without repeats', () => {
    expect(siteOf('Phospho@STY')).toEqual(residues('STY'));
    expect(siteOf('Phospho@sty')).toEqual(residues('STY'));
    expect(siteOf('Phospho@YTS')).toEqual(residues('STY'));
    expect(siteOf('Phospho@SSTT')).toEqual(residues('ST'));
    expect(siteOf('Methyl@J')).toEqual(residues('J'));
    expect(siteOf('Methyl@UO')).toEqual(residues('OU'));
  });

  it('reads the termini and a residue at a terminus, in any case', () => {
    expect(siteOf('Acetyl@N-term')).toEqual(terminus('N'));
    expect(siteOf('Acetyl@n-TERM')).toEqual(terminus('N'));
    expect(siteOf('Amidated@C-term')).toEqual(terminus('C'));
    expect(siteOf('Gln->pyro-Glu@Q@N-term')).toEqual(terminalResidue('Q', 'N'));
    expect(siteOf('Gln->pyro-Glu@q@n-term')).toEqual(terminalResidue('Q', 'N'));
    expect(siteOf('Amidated@K@C-term')).toEqual(terminalResidue('K', 'C'));
  });

  it('trims white space around items, names and sites', () => {
    expect(parseModifications(' Oxidation @ M , Phospho@ S ')).toEqual(parseModifications('Oxidation@M,Phospho@S'));
  });

  it('refuses letters with no defined mass (B, X, Z) and anything that is not a residue letter', () => {
    for (const site of ['B', 'X', 'Z', 'SB', 'x', '1', 'S T', '-', 'N-terminus', 'Nterm-']) {
      const item = `Phospho@${site}`;
      expect(refusal(item), site).toBe(`site ${JSON.stringify(site)} in ${JSON.stringify(item)} ${SITE_HINT}`);
    }
    expect(refusal('Gln->pyro-Glu@B@N-term')).toBe(
      '"B" in "Gln->pyro-Glu@B@N-term" is not a residue with a defined mass',
    );
    expect(refusal('Gln->pyro-Glu@x@N-term')).toBe(
      '"X" in "Gln->pyro-Glu@x@N-term" is not a residue with a defined mass',
    );
  });

  it('refuses an empty item, a missing @, an empty name or an empty site', () => {
    expect(refusal('Oxidation@M,,Phospho@S')).toBe(`"" ${ITEM_HINT}`);
    expect(refusal('Oxidation@M,')).toBe(`"" ${ITEM_HINT}`);
    expect(refusal(' ')).toBe(`"" ${ITEM_HINT}`);
    expect(refusal('Phospho@S,T')).toBe(`"T" ${ITEM_HINT}`); // a comma separates items, not sites
    expect(refusal('Oxidation')).toBe(`"Oxidation" ${ITEM_HINT}`);
    expect(refusal('@M')).toBe(`"@M" ${ITEM_HINT}`);
    expect(refusal('Oxidation@')).toBe(`"Oxidation@" ${ITEM_HINT}`);
  });

  it('refuses more than 8 items, counting them as given', () => {
    expect(MAX_MODIFICATIONS).toBe(8);
    const eight = [
      'Oxidation@M',
      'Phospho@S',
      'Phospho@T',
      'Phospho@Y',
      'Acetyl@K',
      'Methyl@R',
      'Deamidated@N',
      'Deamidated@Q',
    ];
    expect(parseModifications(eight.join(',')).map(specText)).toEqual([
      'Oxidation@M',
      'Phospho@STY',
      'Acetyl@K',
      'Methyl@R',
      'Deamidated@NQ',
    ]);
    expect(refusal([...eight, 'Carbamyl@C'].join(','))).toBe('9 modifications given; at most 8');
    expect(refusal([...eight, 'Oxidation@M'].join(','))).toBe('9 modifications given; at most 8');
  });
});

describe('parseModifications: lists', () => {
  it('keeps items in the order given', () => {
    expect(parseModifications('Oxidation@M,Acetyl@N-term,Phospho@S').map(specText)).toEqual([
      'Oxidation@M',
      'Acetyl@N-term',
      'Phospho@S',
    ]);
  });

  it('merges the same modification on residues into one spec of both sites', () => {
    const specs = parseModifications('Phospho@S,Phospho@T');
    expect(specs).toEqual([
      {
        modification: { name: 'Phospho', accession: 21, delta: '79.966331', deltaUnits: 799_663_310_000 },
        site: residues('ST'),
      },
    ]);
    expect(parseModifications('Phospho@Y,Oxidation@M,phospho@ST').map(specText)).toEqual([
      'Phospho@STY',
      'Oxidation@M',
    ]);
    expect(parseModifications('UNIMOD:21@S,Phospho@T').map(specText)).toEqual(['Phospho@ST']);
    expect(parseModifications('Tag:+1.5@S,Tag:+1.5@T').map(specText)).toEqual(['Tag@ST']);
    // Documented ("the same modification on residues twice is one item of both sites"): a repeat merges.
    expect(parseModifications('Oxidation@M,Oxidation@M').map(specText)).toEqual(['Oxidation@M']);
  });

  it('does not merge a residue site with a terminus, nor two customs of one name but different masses', () => {
    expect(parseModifications('TMT6plex@K,TMT6plex@N-term').map(specText)).toEqual(['TMT6plex@K', 'TMT6plex@N-term']);
    expect(parseModifications('Deamidated@Q,Gln->pyro-Glu@Q@N-term').map(specText)).toEqual([
      'Deamidated@Q',
      'Gln->pyro-Glu@Q@N-term',
    ]);
    const customs = parseModifications('Tag:+1@S,Tag:+2@T');
    expect(customs.map((s) => [specText(s), s.modification.delta])).toEqual([
      ['Tag@S', '1'],
      ['Tag@T', '2'],
    ]);
  });

  it('refuses a terminus item given twice', () => {
    expect(refusal('Acetyl@N-term,Acetyl@N-term')).toBe('"Acetyl@N-term" is given twice');
    expect(refusal('Acetyl@N-term,acetyl@n-term')).toBe('"acetyl@n-term" is given twice');
    expect(refusal('Gln->pyro-Glu@Q@N-term,Gln->pyro-Glu@Q@N-term')).toBe('"Gln->pyro-Glu@Q@N-term" is given twice');
  });

  // A repeat is the same name and delta, not the same object: a custom modification (a new object per item) or a
  // UNIMOD:n alias accepted twice as variable modifications would list one modified peptide twice in a group.
  it('refuses a custom modification given twice on a terminus', () => {
    expect(refusal('Tag:+1@N-term,Tag:+1@N-term')).toBe('"Tag:+1@N-term" is given twice');
  });
  it('refuses a UNIMOD:n alias of an item already given on a terminus', () => {
    expect(refusal('Acetyl@N-term,UNIMOD:1@N-term')).toBe('"UNIMOD:1@N-term" is given twice');
  });
});

describe('siteText and specText', () => {
  it('write sites and specs as a query writes them', () => {
    expect(siteText(residues('STY'))).toBe('STY');
    expect(siteText(terminus('N'))).toBe('N-term');
    expect(siteText(terminus('C'))).toBe('C-term');
    expect(siteText(terminalResidue('Q', 'N'))).toBe('Q@N-term');
    expect(siteText(terminalResidue('K', 'C'))).toBe('K@C-term');
    const [a, b, c] = parseModifications('Label:13C(6)15N(2)@K,Tag:-1.5@C-term,Gln->pyro-Glu@Q@N-term');
    expect([specText(a), specText(b), specText(c)]).toEqual([
      'Label:13C(6)15N(2)@K',
      'Tag@C-term',
      'Gln->pyro-Glu@Q@N-term',
    ]);
  });
});

describe('sitesOverlap', () => {
  // Slots (docs/api.md): one per residue, one per terminus. A terminus slot is never a residue slot.
  const cases: [Site, Site, boolean][] = [
    [terminus('N'), terminus('N'), true],
    [terminus('C'), terminus('C'), true],
    [terminus('N'), terminus('C'), false],
    [terminus('N'), residues('Q'), false],
    [terminus('N'), terminalResidue('Q', 'N'), false],
    [terminus('C'), terminalResidue('K', 'C'), false],
    [residues('C'), residues('C'), true],
    [residues('STY'), residues('Y'), true],
    [residues('ST'), residues('Y'), false],
    [residues('M'), residues('C'), false],
    [residues('Q'), terminalResidue('Q', 'N'), true],
    [residues('NQ'), terminalResidue('Q', 'N'), true],
    [residues('E'), terminalResidue('Q', 'N'), false],
    [terminalResidue('Q', 'N'), terminalResidue('Q', 'N'), true],
    [terminalResidue('Q', 'N'), terminalResidue('E', 'N'), false],
    // A one-residue peptide's only residue is at both termini: Q@N-term and Q@C-term can meet.
    [terminalResidue('Q', 'N'), terminalResidue('Q', 'C'), true],
  ];
  it('is true exactly when the two sites can take the same slot, in either order', () => {
    for (const [a, b, expected] of cases) {
      expect(sitesOverlap(a, b), `${siteText(a)} / ${siteText(b)}`).toBe(expected);
      expect(sitesOverlap(b, a), `${siteText(b)} / ${siteText(a)}`).toBe(expected);
    }
  });
});

describe('residueSlot', () => {
  it('marks every residue of a residue site', () => {
    const seq = 'SAMTYK';
    expect([...seq].map((_, i) => residueSlot(residues('STY'), seq, i))).toEqual([
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
    expect([...seq].map((_, i) => residueSlot(residues('C'), seq, i))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('marks no residue for a bare terminus', () => {
    const seq = 'QAK';
    for (let i = 0; i < seq.length; i++) {
      expect(residueSlot(terminus('N'), seq, i)).toBe(false);
      expect(residueSlot(terminus('C'), seq, i)).toBe(false);
    }
  });

  it('marks the first (N) or last (C) residue only, and only when it is the letter', () => {
    expect([...'QAQK'].map((_, i) => residueSlot(terminalResidue('Q', 'N'), 'QAQK', i))).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect([...'AQQK'].map((_, i) => residueSlot(terminalResidue('Q', 'N'), 'AQQK', i))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect([...'KAKK'].map((_, i) => residueSlot(terminalResidue('K', 'C'), 'KAKK', i))).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect([...'KAKR'].map((_, i) => residueSlot(terminalResidue('K', 'C'), 'KAKR', i))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(residueSlot(terminalResidue('Q', 'C'), 'Q', 0)).toBe(true);
  });
});

describe('slotCount', () => {
  it('counts the residues of one residue site', () => {
    expect(slotCount([residues('M')], 'MAMMK')).toBe(3);
    expect(slotCount([residues('STY')], 'SATYSK')).toBe(4);
    expect(slotCount([residues('C')], 'PEPTIDEK')).toBe(0);
    expect(slotCount([residues('C')], '')).toBe(0);
  });

  it('counts a terminus once, on every peptide', () => {
    expect(slotCount([terminus('N')], 'PEPTIDEK')).toBe(1);
    expect(slotCount([terminus('C')], 'K')).toBe(1);
    expect(slotCount([terminus('N'), terminus('N')], 'PEPTIDEK')).toBe(1);
    expect(slotCount([terminus('N'), terminus('C')], 'PEPTIDEK')).toBe(2);
  });

  it('counts a terminal residue when the peptide starts (N) or ends (C) with it', () => {
    expect(slotCount([terminalResidue('Q', 'N')], 'QAQK')).toBe(1);
    expect(slotCount([terminalResidue('Q', 'N')], 'AQQK')).toBe(0);
    expect(slotCount([terminalResidue('K', 'C')], 'AQQK')).toBe(1);
    expect(slotCount([terminalResidue('K', 'C')], 'KAQR')).toBe(0);
  });

  it('counts the union of several sites: shared slots once', () => {
    // Deamidated@NQ with Gln->pyro-Glu@Q@N-term on QNAQK: slots Q0, N1, Q3 — the N-terminal Q counted once.
    expect(slotCount([residues('NQ'), terminalResidue('Q', 'N')], 'QNAQK')).toBe(3);
    expect(slotCount([residues('ST'), residues('TY')], 'STYAK')).toBe(3);
    expect(slotCount([residues('M'), terminus('N'), terminus('C')], 'MAMK')).toBe(4);
    expect(slotCount([residues('K'), terminalResidue('K', 'C'), terminus('C')], 'KAKK')).toBe(4);
    expect(slotCount([], 'PEPTIDEK')).toBe(0);
  });
});

describe('the protein N-terminus', () => {
  const [acetyl] = parseModifications('Acetyl@Protein N-term');

  it('is read in the spellings tools write it, and only for the N-terminus', () => {
    expect(acetyl.site).toEqual({ kind: 'protein terminus', end: 'N' });
    expect(acetyl.modification.delta).toBe('42.010565');
    for (const text of ['Acetyl@protein n-term', 'Acetyl@Protein_N-term', 'Acetyl@Protein-Nterm'])
      expect(parseModifications(text)[0].site).toEqual(acetyl.site);
    expect(() => parseModifications('Amidated@Protein C-term')).toThrow(/Protein N-term only/);
    expect(specText(acetyl)).toBe('Acetyl@Protein N-term');
  });

  it('takes the N-terminus slot: it overlaps N-term sites and no residue', () => {
    const [nTerm, qTerm, k] = parseModifications('TMT6plex@N-term,Gln->pyro-Glu@Q@N-term,Carbamyl@K');
    expect([nTerm, qTerm, k].map((s) => sitesOverlap(acetyl.site, s.site))).toEqual([true, false, false]);
    expect(sitesOverlap(acetyl.site, acetyl.site)).toBe(true);
  });

  it('is a slot only of a peptide that starts a protein, counted once with an N-term site', () => {
    expect(slotCount([acetyl.site], 'PEPTIDEK')).toBe(0);
    expect(slotCount([acetyl.site], 'PEPTIDEK', true)).toBe(1);
    const nTerm = parseModifications('Carbamyl@N-term')[0].site;
    expect(slotCount([acetyl.site, nTerm], 'PEPTIDEK', true)).toBe(1);
    expect(slotCount([acetyl.site, nTerm], 'PEPTIDEK', false)).toBe(1);
    expect(residueSlot(acetyl.site, 'PEPTIDEK', 0)).toBe(false);
  });
});

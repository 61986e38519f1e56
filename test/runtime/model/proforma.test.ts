// Tests runtime/model/proforma.ts against ProForma strings written by hand from docs/api.md's rules (global tags for
// fixed modifications, localised or `[Name]^n?` variable ones, `U:` titles, signed custom masses).
import { describe, expect, it } from 'vitest';
import {
  parseModifications,
  type Modification,
  type ModSpec,
  type Site,
} from '../../../runtime/model/modifications.js';
import { proforma, proformaTag, proformaWriter } from '../../../runtime/model/proforma.js';
import { prng } from '../../helpers/prng.js';
import { parseRefMods, referenceProforma, variableCountVectors } from '../../helpers/referencePrecursor.js';
import { letterBytes, lettersText } from '../../helpers/letters.js';

const residues = (letters: string): Site => ({ kind: 'residues', letters });
const terminus = (end: 'N' | 'C'): Site => ({ kind: 'terminus', end });
const terminalResidue = (letter: string, end: 'N' | 'C'): Site => ({ kind: 'terminal residue', end, letter });

/** A Unimod modification (units are irrelevant to the text, but given right). */
const unimod = (name: string, accession: number, delta: string): Modification => ({
  name,
  accession,
  delta,
  deltaUnits: Math.round(Number(delta) * 1e10),
});
const custom = (name: string, delta: string): Modification => ({
  name,
  delta,
  deltaUnits: Math.round(Number(delta) * 1e10),
});
const at = (modification: Modification, site: Site): ModSpec => ({ modification, site });

const CAM = unimod('Carbamidomethyl', 4, '57.021464');
const OX = unimod('Oxidation', 35, '15.994915');
const PHOSPHO = unimod('Phospho', 21, '79.966331');
const ACETYL = unimod('Acetyl', 1, '42.010565');
const AMIDATED = unimod('Amidated', 2, '-0.984016');
const TMT = unimod('TMT6plex', 737, '229.162932');
const PYRO = unimod('Gln->pyro-Glu', 28, '-17.026549');
const DEAMIDATED = unimod('Deamidated', 7, '0.984016');
const SILAC = unimod('Label:13C(6)15N(2)', 259, '8.014199');

describe('proformaTag', () => {
  it('is the Unimod title, with U: when it holds a colon', () => {
    expect(proformaTag(at(OX, residues('M')))).toBe('Oxidation');
    expect(proformaTag(at(PYRO, terminalResidue('Q', 'N')))).toBe('Gln->pyro-Glu');
    expect(proformaTag(at(SILAC, residues('K')))).toBe('U:Label:13C(6)15N(2)');
    expect(proformaTag(at(unimod('Dimethyl:2H(4)', 199, '32.056407'), residues('K')))).toBe('U:Dimethyl:2H(4)');
  });

  it('is the signed mass of a custom modification', () => {
    expect(proformaTag(at(custom('Tag', '12.3456'), residues('K')))).toBe('+12.3456');
    expect(proformaTag(at(custom('Loss', '-18.0105646837'), terminus('C')))).toBe('-18.0105646837');
    expect(proformaTag(at(custom('Nothing', '0'), residues('K')))).toBe('+0');
  });
});

describe('proforma: nothing modified', () => {
  it('is the plain sequence', () => {
    expect(proforma('PEPTIDEK', [], [])).toBe('PEPTIDEK');
    expect(proforma('PEPMTIDEK', [], [{ spec: at(OX, residues('M')), count: 0 }])).toBe('PEPMTIDEK');
    expect(proforma('PEPTIDEK', [at(CAM, residues('C'))], [{ spec: at(OX, residues('M')), count: 0 }])).toBe(
      'PEPTIDEK',
    );
  });
});

describe('proforma: fixed modifications', () => {
  it('writes a global tag only when the peptide has the site', () => {
    const fixed = [at(CAM, residues('C'))];
    expect(proforma('ACDCK', fixed, [])).toBe('<[Carbamidomethyl]@C>ACDCK');
    expect(proforma('CK', fixed, [])).toBe('<[Carbamidomethyl]@C>CK');
    expect(proforma('ADEK', fixed, [])).toBe('ADEK');
  });

  it('writes one tag per modification, in the order given', () => {
    expect(proforma('CAK', [at(CAM, residues('C')), at(TMT, residues('K'))], [])).toBe(
      '<[Carbamidomethyl]@C><[TMT6plex]@K>CAK',
    );
    expect(proforma('CAK', [at(TMT, residues('K')), at(CAM, residues('C'))], [])).toBe(
      '<[TMT6plex]@K><[Carbamidomethyl]@C>CAK',
    );
    expect(proforma('CAR', [at(CAM, residues('C')), at(TMT, residues('K'))], [])).toBe('<[Carbamidomethyl]@C>CAR');
    expect(proforma('MAR', [at(CAM, residues('C')), at(TMT, residues('K'))], [])).toBe('MAR');
  });

  it('writes a fixed terminus modification on every peptide', () => {
    expect(proforma('PEPTIDEK', [at(ACETYL, terminus('N'))], [])).toBe('<[Acetyl]@N-term>PEPTIDEK');
    expect(proforma('PEPTIDEK', [at(AMIDATED, terminus('C'))], [])).toBe('<[Amidated]@C-term>PEPTIDEK');
  });

  it('writes a fixed terminal-residue modification as N-term:Q (ProForma 2.1), only on peptides starting with it', () => {
    expect(proforma('QPEK', [at(PYRO, terminalResidue('Q', 'N'))], [])).toBe('<[Gln->pyro-Glu]@N-term:Q>QPEK');
    expect(proforma('PEQK', [at(PYRO, terminalResidue('Q', 'N'))], [])).toBe('PEQK');
  });

  it('lists every site of one modification in one tag: TMT6plex@K,TMT6plex@N-term', () => {
    const fixed = parseModifications('TMT6plex@K,TMT6plex@N-term');
    expect(proforma('PEPTIDEK', fixed, [])).toBe('<[TMT6plex]@K,N-term>PEPTIDEK');
    expect(proforma('KPEPTIDEK', fixed, [])).toBe('<[TMT6plex]@K,N-term>KPEPTIDEK');
    expect(proforma('PEPTIDEK', parseModifications('TMT6plex@N-term,TMT6plex@K'), [])).toBe(
      '<[TMT6plex]@N-term,K>PEPTIDEK',
    );
  });

  it('lists all sites of a merged residue modification, even those the peptide lacks (Phospho@S,Phospho@T)', () => {
    expect(proforma('PEPSK', parseModifications('Phospho@S,Phospho@T'), [])).toBe('<[Phospho]@S,T>PEPSK');
    expect(proforma('PEPSK', [at(PHOSPHO, residues('STY'))], [])).toBe('<[Phospho]@S,T,Y>PEPSK');
  });

  // One tag per modification name (docs/api.md), "listing every site the query gives it, written when the peptide holds at
  // least one": a tag per spec would drop K (`<[TMT6plex]@N-term>PEPTIDER`).
  it('keeps K in the TMT6plex tag of a peptide without K, and writes no tag when the peptide holds none of the sites', () => {
    expect(proforma('PEPTIDER', parseModifications('TMT6plex@K,TMT6plex@N-term'), [])).toBe(
      '<[TMT6plex]@K,N-term>PEPTIDER',
    );
    expect(proforma('QPEPTIDER', parseModifications('Gln->pyro-Glu@Q@N-term,Gln->pyro-Glu@K'), [])).toBe(
      '<[Gln->pyro-Glu]@N-term:Q,K>QPEPTIDER',
    );
    expect(proforma('PEPTIDER', parseModifications('Gln->pyro-Glu@Q@N-term,Gln->pyro-Glu@K'), [])).toBe('PEPTIDER');
  });

  it('merges fixed modifications of one tag into one global tag, in first-given order', () => {
    const fixed = [at(TMT, residues('K')), at(CAM, residues('C')), at(TMT, terminus('N'))];
    expect(proforma('CPEK', fixed, [])).toBe('<[TMT6plex]@K,N-term><[Carbamidomethyl]@C>CPEK');
    expect(proforma('PEPR', fixed, [])).toBe('<[TMT6plex]@K,N-term>PEPR');
  });

  it('writes a colon title with U: and a custom modification as its signed mass', () => {
    expect(proforma('PEPTIDEK', [at(SILAC, residues('K'))], [])).toBe('<[U:Label:13C(6)15N(2)]@K>PEPTIDEK');
    expect(proforma('PESK', [at(custom('Tag', '12.3456'), residues('S'))], [])).toBe('<[+12.3456]@S>PESK');
    expect(proforma('PESK', [at(custom('Loss', '-1.5'), residues('S'))], [])).toBe('<[-1.5]@S>PESK');
  });
});

describe('proforma: variable modifications', () => {
  const ox = at(OX, residues('M'));

  it('localises a modification whose count fills all its slots', () => {
    expect(proforma('PEMK', [], [{ spec: ox, count: 1 }])).toBe('PEM[Oxidation]K');
    expect(proforma('PEMTIDEMK', [], [{ spec: ox, count: 2 }])).toBe('PEM[Oxidation]TIDEM[Oxidation]K');
    expect(proforma('STYK', [], [{ spec: at(PHOSPHO, residues('STY')), count: 3 }])).toBe(
      'S[Phospho]T[Phospho]Y[Phospho]K',
    );
  });

  it('writes [Name]? for one of several slots and [Name]^n? for n', () => {
    expect(proforma('PEMTIDEMK', [], [{ spec: ox, count: 1 }])).toBe('[Oxidation]?PEMTIDEMK');
    expect(proforma('MAMAMK', [], [{ spec: ox, count: 2 }])).toBe('[Oxidation]^2?MAMAMK');
    expect(proforma('MAMAMAMK', [], [{ spec: ox, count: 3 }])).toBe('[Oxidation]^3?MAMAMAMK');
    expect(proforma('SATAYK', [], [{ spec: at(PHOSPHO, residues('STY')), count: 2 }])).toBe('[Phospho]^2?SATAYK');
  });

  it('writes unlocalised modifications in the order given, then localised ones in place', () => {
    const phospho = at(PHOSPHO, residues('ST'));
    expect(
      proforma(
        'MSAMTK',
        [],
        [
          { spec: ox, count: 1 },
          { spec: phospho, count: 1 },
        ],
      ),
    ).toBe('[Oxidation]?[Phospho]?MSAMTK');
    expect(
      proforma(
        'MSAMTK',
        [],
        [
          { spec: phospho, count: 1 },
          { spec: ox, count: 1 },
        ],
      ),
    ).toBe('[Phospho]?[Oxidation]?MSAMTK');
    expect(
      proforma(
        'MSAMK',
        [],
        [
          { spec: ox, count: 1 },
          { spec: phospho, count: 1 },
        ],
      ),
    ).toBe('[Oxidation]?MS[Phospho]AMK');
  });

  it('writes terminus modifications as [Name]-SEQ and SEQ-[Name]', () => {
    const acetyl = at(ACETYL, terminus('N'));
    const amidated = at(AMIDATED, terminus('C'));
    expect(proforma('PEPTIDEK', [], [{ spec: acetyl, count: 1 }])).toBe('[Acetyl]-PEPTIDEK');
    expect(proforma('PEPTIDEK', [], [{ spec: amidated, count: 1 }])).toBe('PEPTIDEK-[Amidated]');
    expect(
      proforma(
        'PEPTIDEK',
        [],
        [
          { spec: acetyl, count: 1 },
          { spec: amidated, count: 1 },
        ],
      ),
    ).toBe('[Acetyl]-PEPTIDEK-[Amidated]');
    expect(
      proforma(
        'PEPTIDEK',
        [],
        [
          { spec: acetyl, count: 0 },
          { spec: amidated, count: 1 },
        ],
      ),
    ).toBe('PEPTIDEK-[Amidated]');
  });

  it('writes a terminal-residue modification at its terminus: [Gln->pyro-Glu]-Q...', () => {
    expect(proforma('QPEPTIDEK', [], [{ spec: at(PYRO, terminalResidue('Q', 'N')), count: 1 }])).toBe(
      '[Gln->pyro-Glu]-QPEPTIDEK',
    );
    expect(proforma('PEPTIDEK', [], [{ spec: at(AMIDATED, terminalResidue('K', 'C')), count: 1 }])).toBe(
      'PEPTIDEK-[Amidated]',
    );
  });

  it('places global tags first, then unlocalised, then the N-terminus, sequence and C-terminus', () => {
    const text = proforma(
      'MCMK',
      [at(CAM, residues('C'))],
      [
        { spec: ox, count: 1 },
        { spec: at(ACETYL, terminus('N')), count: 1 },
        { spec: at(AMIDATED, terminus('C')), count: 1 },
      ],
    );
    expect(text).toBe('<[Carbamidomethyl]@C>[Oxidation]?[Acetyl]-MCMK-[Amidated]');
    expect(proforma('MCK', [at(CAM, residues('C'))], [{ spec: ox, count: 1 }])).toBe(
      '<[Carbamidomethyl]@C>M[Oxidation]CK',
    );
  });

  it('treats variable modifications sharing a residue each by its own slots (Deamidated@Q with pyro-Glu on Q@N-term)', () => {
    const deamidated = at(DEAMIDATED, residues('Q'));
    const pyro = at(PYRO, terminalResidue('Q', 'N'));
    expect(
      proforma(
        'QAQK',
        [],
        [
          { spec: deamidated, count: 1 },
          { spec: pyro, count: 1 },
        ],
      ),
    ).toBe('[Deamidated]?[Gln->pyro-Glu]-QAQK');
    expect(
      proforma(
        'QAQK',
        [],
        [
          { spec: deamidated, count: 2 },
          { spec: pyro, count: 0 },
        ],
      ),
    ).toBe('Q[Deamidated]AQ[Deamidated]K');
    expect(
      proforma(
        'QAK',
        [],
        [
          { spec: deamidated, count: 1 },
          { spec: pyro, count: 0 },
        ],
      ),
    ).toBe('Q[Deamidated]AK');
  });

  it('writes a colon title with U: and a custom modification as its signed mass, localised or not', () => {
    expect(proforma('PEPTIDEK', [], [{ spec: at(SILAC, residues('K')), count: 1 }])).toBe(
      'PEPTIDEK[U:Label:13C(6)15N(2)]',
    );
    expect(proforma('KAK', [], [{ spec: at(SILAC, residues('K')), count: 1 }])).toBe('[U:Label:13C(6)15N(2)]?KAK');
    expect(proforma('PESK', [], [{ spec: at(custom('Tag', '12.3456'), residues('S')), count: 1 }])).toBe(
      'PES[+12.3456]K',
    );
    expect(proforma('PESK', [], [{ spec: at(custom('Loss', '-1.5'), residues('S')), count: 1 }])).toBe('PES[-1.5]K');
    expect(proforma('SESK', [], [{ spec: at(custom('Loss', '-1.5'), residues('S')), count: 1 }])).toBe('[-1.5]?SESK');
    expect(proforma('PEPTIDEK', [], [{ spec: at(custom('Cap', '-0.5'), terminus('N')), count: 1 }])).toBe(
      '[-0.5]-PEPTIDEK',
    );
  });
});

// Against the reference's own ProForma (test/helpers/referencePrecursor.ts, written from docs/api.md's rules), over
// random peptides and every count vector their slots allow, for settings where termini and terminal residues mix
// with residues, custom masses with Unimod titles, and counts are localised and not.
describe('proformaWriter against the reference', () => {
  const settings: { fixed: string; variable: string }[] = [
    { fixed: 'Carbamidomethyl@C', variable: 'Oxidation@M' },
    { fixed: 'TMT6plex@K,TMT6plex@N-term', variable: 'Phospho@STY,Oxidation@M' },
    { fixed: '', variable: 'Deamidated@NQ,Gln->pyro-Glu@Q@N-term,Acetyl@N-term' },
    { fixed: 'Carbamidomethyl@C', variable: 'Oxidation@MW,Amid:-0.984@C-term,Custom:+12.5@K' },
    { fixed: '', variable: 'Phospho@ST,Methyl@KR,Deamidated@N' },
  ];
  const random = prng(51);
  const peptideOf = () =>
    Array.from({ length: 4 + Math.floor(random() * 14) }, () => 'ACDEFGHIKLMNPQRSTVWY'[Math.floor(random() * 20)]).join(
      '',
    );
  for (const setting of settings) {
    it(`${setting.fixed || 'no fixed'}; ${setting.variable}`, () => {
      const write = proformaWriter(
        setting.fixed ? parseModifications(setting.fixed) : [],
        parseModifications(setting.variable),
      );
      const ref = { fixed: parseRefMods(setting.fixed), variable: parseRefMods(setting.variable), maxVariable: 4 };
      let modified = 0;
      for (let n = 0; n < 400; n++) {
        const sequence = random() < 0.3 ? `Q${peptideOf()}` : peptideOf();
        for (const counts of variableCountVectors(sequence, ref.variable, 4)) {
          const expected = referenceProforma(sequence, ref, counts);
          expect(write.text(sequence, counts), `${sequence} ${counts}`).toBe(expected);
          // Written piece by piece into an out (as answers write it into their bytes): the same text.
          let written = '';
          const out = {
            write: (text: string) => (written += text),
            copy: (bytes: Uint8Array, start: number, end: number) =>
              (written += lettersText(bytes.subarray(start, end))),
          };
          write.write(out, sequence, counts);
          expect(written, `${sequence} ${counts} written`).toBe(expected);
          // From letters in place, inside a run of other peptides' letters (as a shard holds them): the same text.
          written = '';
          write.writeLetters(out, letterBytes(`KR${sequence}QM`), 2, 2 + sequence.length, counts);
          expect(written, `${sequence} ${counts} from letters`).toBe(expected);
          if (counts.some((c) => c > 0)) modified++;
        }
      }
      expect(modified).toBeGreaterThan(100); // the modified forms were compared, not only plain ones
    });
  }
});

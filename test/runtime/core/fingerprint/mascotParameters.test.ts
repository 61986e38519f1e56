// Tests runtime/core/fingerprint/mascotParameters.ts with runtime/core/fingerprint/peakText.ts: a peak list written
// for Mascot (parameters at its head, Matrix Science's "Data file format") read as its peaks and its COM as the
// title; every parameter the answer depends on either agrees with the query or is refused naming its line and what
// to do. Expectations written by hand from Mascot's documented meanings (1+ is [M+H]+, Mr a neutral mass, mmu a
// thousandth of a Da, % ten thousand ppm).
import { describe, expect, it } from 'vitest';
import { embeddedTitle, type EmbeddedQuery } from '../../../../runtime/core/fingerprint/mascotParameters.js';
import { PeakTextError, readPeakText } from '../../../../runtime/core/fingerprint/peakText.js';

const MH_50PPM: EmbeddedQuery = { ion: 'mh', tolerance: { unit: 'ppm', below: 50, above: 50 } };
const NEUTRAL_01DA: EmbeddedQuery = { ion: 'neutral', tolerance: { unit: 'Da', below: 0.1, above: 0.1 } };

/** The title or refusal the head lines give with `query`. */
const judged = (head: string, query = MH_50PPM) => embeddedTitle(readPeakText(`${head}\n1000.5\n`).parameters, query);

describe('a peak list written for Mascot', () => {
  it('reads its peaks after the parameters and comments, and its COM as the title', () => {
    const text = [
      'COM=Spot B7, gel 2',
      'USERNAME=A. Researcher',
      'USEREMAIL=a@lab.example',
      'FORMAT=Mascot generic',
      'REPORT=AUTO',
      'REPTYPE=Protein',
      'SEARCH=PMF',
      'MASS=Monoisotopic',
      'CHARGE=1+',
      'TOL=50',
      'TOLU=ppm',
      '; a Mascot comment',
      '! another',
      '/ and another',
      '# and ours',
      '1045.5642 1200',
      '1296.6848\t860',
      '',
    ].join('\n');
    const { mz, intensity, parameters } = readPeakText(text);
    expect(Array.from(mz)).toEqual([1045.5642, 1296.6848]);
    expect(Array.from(intensity!)).toEqual([1200, 860]);
    expect(parameters.map((p) => [p.key, p.value, p.line])).toEqual([
      ['COM', 'Spot B7, gel 2', 1],
      ['USERNAME', 'A. Researcher', 2],
      ['USEREMAIL', 'a@lab.example', 3],
      ['FORMAT', 'Mascot generic', 4],
      ['REPORT', 'AUTO', 5],
      ['REPTYPE', 'Protein', 6],
      ['SEARCH', 'PMF', 7],
      ['MASS', 'Monoisotopic', 8],
      ['CHARGE', '1+', 9],
      ['TOL', '50', 10],
      ['TOLU', 'ppm', 11],
    ]);
    expect(embeddedTitle(parameters, MH_50PPM)).toEqual({ title: 'Spot B7, gel 2' });
    // Keys are read whatever their case, as Mascot reads them.
    expect(judged('com=x\nmass=mono\ncharge=1+')).toEqual({ title: 'x' });
    // TITLE titles the list as COM does.
    expect(judged('TITLE=spot A1\nCHARGE=1+')).toEqual({ title: 'spot A1' });
    // A list without parameters has no title.
    expect(judged('')).toEqual({});
  });

  it('takes parameters at the head only: after the first peak, a KEY=value line is no peak', () => {
    expect(() => readPeakText('1000.5\nCOM=late\n')).toThrow(PeakTextError);
    expect(() => readPeakText('1000.5\nCOM=late\n')).toThrow(/^line 2: "COM=late" is not a positive m\/z$/);
  });

  it.each([
    ['CHARGE=1+', MH_50PPM],
    ['CHARGE=Mr', NEUTRAL_01DA],
    ['CHARGE=2+', { ...MH_50PPM, ion: 2 }],
    ['CHARGE=1+', { ...MH_50PPM, ion: 1 }],
    ['TOL=50\nTOLU=ppm', MH_50PPM],
    ['TOL=50', MH_50PPM],
    ['TOL=0.1\nTOLU=Da', NEUTRAL_01DA],
    ['TOLU=Da\nTOL=0.1', NEUTRAL_01DA],
    ['TOL=100\nTOLU=mmu', NEUTRAL_01DA],
    ['TOL=0.005\nTOLU=%', MH_50PPM],
    ['MASS=Monoisotopic\nSEARCH=pmf', MH_50PPM],
  ] as const)('accepts %j when the query says the same', (head, query) => {
    expect(judged(head, query as EmbeddedQuery)).toEqual({});
  });

  it.each([
    ['MASS=Average', /^line 1: MASS=Average: the peaks are matched as monoisotopic masses \(MASS=Monoisotopic\) only$/],
    ['CHARGE=2+', /^line 1: CHARGE=2\+ says the peaks are charge 2, but the query reads them as \[M\+H\]\+ \(ion=mh\)/],
    [
      'CHARGE=Mr',
      /^line 1: CHARGE=Mr says the peaks are neutral masses \(ion=neutral\), but the query reads them as \[M\+H\]\+/,
    ],
    ['CHARGE=1-', /^line 1: CHARGE=1- says the peaks are ions this fingerprint does not read/],
    [
      'COM=x\nTOL=0.5\nTOLU=Da',
      /^line 2: TOL=0.5: the file asks for ±0.5 Da, the query for ±50 ppm: ask for tolerance 0.5 and unit Da/,
    ],
    ['TOL=20\nTOLU=ppm', /^line 1: TOL=20: the file asks for ±20 ppm, the query for ±50 ppm/],
    ['TOL=fifty', /^line 1: TOL=fifty: not a tolerance/],
    [
      'TOL=50\nTOLU=furlongs',
      /^line 1: TOL=50: TOLU=furlongs is not a unit this fingerprint reads \(Da, mmu, ppm or %\)/,
    ],
    ['TOLU=ppm', /^line 1: TOLU=ppm without TOL: give both, or neither$/],
    ['SEARCH=MIS', /^line 1: SEARCH=MIS asks for another search than a peptide mass fingerprint/],
    [
      'CLE=Trypsin',
      /^line 1: CLE=Trypsin is a Mascot search parameter .*; the dataset's enzyme .* stands for it: remove the line$/,
    ],
    ['PFA=1', /^line 1: PFA=1 is .*the dataset's missed cleavages/],
    ['MODS=Carbamidomethyl (C)', /^line 1: MODS=Carbamidomethyl \(C\) is .*; fixed stands for it/],
    ['IT_MODS=Oxidation (M)', /^line 1: IT_MODS=Oxidation \(M\) is .*; variable stands for it/],
    ['TAXONOMY=Homo sapiens (human)', /^line 1: TAXONOMY=.*; taxon stands for it/],
    ['DB=SwissProt', /^line 1: DB=SwissProt is .*; the dataset the query searches stands for it/],
    [
      'COM=x\nSEG=45',
      /^line 2: SEG=45 is a Mascot search parameter a fingerprint does not read from the file: remove the line$/,
    ],
  ])('refuses %j, naming the line', (head, message) => {
    const got = judged(head);
    expect(got).toHaveProperty('error');
    expect((got as { error: string }).error).toMatch(message);
  });

  it('says an asymmetric query window as it is', () => {
    const got = judged('TOL=50', { ion: 'mh', tolerance: { unit: 'ppm', below: 20, above: 50 } });
    expect(got).toEqual({
      error:
        'line 1: TOL=50: the file asks for ±50 ppm, the query for −20/+50 ppm: ask for tolerance 50 and unit ppm, or remove the line',
    });
  });
});

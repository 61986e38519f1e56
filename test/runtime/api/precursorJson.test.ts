// Tests runtime/api/precursorJson.ts on a hand-made Shard object and hand-made candidates: precursorEntry (fields
// and their order, ProForma under the query's modifications, mass to 6 decimals, ppm = (M − mass) / mass × 10^6 to
// 2 decimals and absent without a centre, accsTax), groupEntries (by sequence, then ProForma), renderPrecursorJson
// (the envelope's exact text) and precursorRows / PRECURSOR_TSV_HEADER. Expected texts are written by hand.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  groupEntries,
  PRECURSOR_TSV_COLUMNS,
  PRECURSOR_TSV_HEADER,
  precursorEntry,
  precursorRows,
  renderPrecursorJson,
} from '../../../runtime/api/precursorJson.js';
import type {
  Candidate,
  CandidateGroup,
  PrecursorQuery,
  PrecursorResult,
} from '../../../runtime/core/precursor/precursor.js';
import { AccessionSet } from '../../../runtime/model/accessionSet.js';
import type { Shard } from '../../../runtime/model/format.js';
import type { ModSpec } from '../../../runtime/model/modifications.js';
import { letterBytes } from '../../helpers/letters.js';

// Six peptides (the last without accessions), six accessions (the last without a taxId).
const SEQUENCES = ['DYSRLTADSSGK', 'DCMQKAQKYK', 'MHPAISPMIDR', 'MQEANMLYRK', 'MAMK', 'PEPCK'];
const SHARD: Shard = {
  massKeys: Uint32Array.from([12_986_103, 12_986_111, 12_986_112, 12_986_113, 12_986_114, 12_986_115]),
  groupEnds: Uint32Array.from([1, 2, 3, 4, 5, 6]),
  sequences: letterBytes(SEQUENCES.join('')),
  sequenceEnds: Uint32Array.from([12, 22, 33, 43, 47, 52]),
  accessionRefEnds: Uint32Array.from([1, 2, 4, 5, 6, 6]),
  accessionRefs: Uint32Array.from([0, 1, 3, 4, 2, 5]),
};
const ACCESSIONS = new AccessionSet([
  {
    first: 0,
    table: {
      accessions: 'A0A0F7PXC4' + 'H3AVM2' + 'M0ZLJ1' + 'S0AS87' + 'T0LP04' + 'X00001',
      accessionEnds: Uint32Array.from([10, 16, 22, 28, 34, 40]),
      taxIds: Int32Array.from([1194971, 7897, 4113, 333146, 667135, -1]),
      reviewed: new Uint8Array(6),
    },
  },
]);

const CAM_C: ModSpec = {
  modification: { name: 'Carbamidomethyl', accession: 4, delta: '57.021464', deltaUnits: 570_214_640_000 },
  site: { kind: 'residues', letters: 'C' },
};
const OX_M: ModSpec = {
  modification: { name: 'Oxidation', accession: 35, delta: '15.994915', deltaUnits: 159_949_150_000 },
  site: { kind: 'residues', letters: 'M' },
};

/** mz=650.3188&charge=2: M = (650.3188 − 1.007276466621) × 2 = 1298.623047066758 Da. */
const CENTRE = (650.3188 - 1.007276466621) * 2;
const QUERY: PrecursorQuery = {
  lowKey: 12_986_101,
  highKey: 12_986_360,
  centre: CENTRE,
  fixed: [CAM_C],
  variable: [OX_M],
  maxVariable: 2,
  filter: { taxa: [] },
  page: 1,
  pageSize: 100,
};
const RANGE_QUERY: PrecursorQuery = { ...QUERY, centre: undefined };

const candidate = (peptide: number, oxidations: number, units: number): Candidate => ({
  shard: SHARD,
  peptide,
  variableCounts: [oxidations],
  units,
  key: Math.floor((units + 500_000) / 1_000_000),
});

// 1298.6102575037 Da rounds to 1298.610258; ppm (1298.623047066758 − 1298.6102575037) / 1298.6102575037 × 10^6 = 9.8487
// → 9.85.
const DYS = candidate(0, 0, 12_986_102_575_037);
// 1298.611128 Da; ppm 9.17832 → 9.18.
const DCM = candidate(1, 0, 12_986_111_280_000);
const MHP = candidate(2, 2, 12_986_111_280_000);
const MQE = candidate(3, 1, 12_986_111_280_000);

const DYS_JSON =
  '{"seq":"DYSRLTADSSGK","proforma":"DYSRLTADSSGK","mass":1298.610258,"ppm":9.85,"accsTax":[{"acc":"A0A0F7PXC4","taxId":1194971}]}';
const DCM_JSON =
  '{"seq":"DCMQKAQKYK","proforma":"<[Carbamidomethyl]@C>DCMQKAQKYK","mass":1298.611128,"ppm":9.18,"accsTax":[{"acc":"H3AVM2","taxId":7897}]}';
const MHP_JSON =
  '{"seq":"MHPAISPMIDR","proforma":"M[Oxidation]HPAISPM[Oxidation]IDR","mass":1298.611128,"ppm":9.18,"accsTax":[{"acc":"S0AS87","taxId":333146},{"acc":"T0LP04","taxId":667135}]}';
const MQE_JSON =
  '{"seq":"MQEANMLYRK","proforma":"[Oxidation]?MQEANMLYRK","mass":1298.611128,"ppm":9.18,"accsTax":[{"acc":"M0ZLJ1","taxId":4113}]}';

describe('precursorEntry', () => {
  it('gives seq, proforma, mass, ppm and accsTax, in that order', () => {
    const entry = precursorEntry(QUERY, MHP, ACCESSIONS);
    expect(Object.keys(entry)).toEqual(['seq', 'proforma', 'mass', 'ppm', 'accsTax']);
    expect(JSON.stringify(entry)).toBe(MHP_JSON);
    expect(JSON.stringify(precursorEntry(QUERY, DCM, ACCESSIONS))).toBe(DCM_JSON);
    expect(JSON.stringify(precursorEntry(QUERY, MQE, ACCESSIONS))).toBe(MQE_JSON);
    expect(JSON.stringify(precursorEntry(QUERY, DYS, ACCESSIONS))).toBe(DYS_JSON);
  });

  it('leaves ppm out when the query has no centre (mass1/mass2)', () => {
    const entry = precursorEntry(RANGE_QUERY, MHP, ACCESSIONS);
    expect(Object.keys(entry)).toEqual(['seq', 'proforma', 'mass', 'accsTax']);
    expect('ppm' in entry).toBe(false);
    expect(JSON.stringify(entry)).toBe(MHP_JSON.replace(',"ppm":9.18', ''));
  });

  it('writes the mass from the exact units, to 6 decimals', () => {
    expect(precursorEntry(QUERY, candidate(4, 0, 10_000_000_000_000), ACCESSIONS).mass).toBe(1000);
    expect(precursorEntry(QUERY, candidate(4, 0, 12_345_678_904_999), ACCESSIONS).mass).toBe(1234.56789); // 1234.5678904999
    expect(precursorEntry(QUERY, candidate(4, 0, 12_345_678_905_001), ACCESSIONS).mass).toBe(1234.567891); // 1234.5678905001
    expect(precursorEntry(QUERY, candidate(4, 0, 4_521_234_567_891), ACCESSIONS).mass).toBe(452.123457); // 452.1234567891
  });

  it('computes ppm as observed minus theoretical over theoretical, to 2 decimals', () => {
    const at = (centre: number, units: number) =>
      precursorEntry({ ...QUERY, centre }, candidate(4, 0, units), ACCESSIONS).ppm;
    expect(at(1000, 9_999_900_000_000)).toBe(10); // (1000 − 999.99) / 999.99 × 10^6 = 10.0001
    expect(at(1000, 10_000_100_000_000)).toBe(-10); // (1000 − 1000.01) / 1000.01 × 10^6 = −9.9999
    expect(at(CENTRE, 12_986_200_000_000)).toBe(2.35); // mass 1298.62: 2.34639
    expect(at(CENTRE, 12_986_400_000_000)).toBe(-13.05); // mass 1298.64: −13.05437
    expect(at(1000.5, 10_000_000_000_000)).toBe(500);
  });

  it('writes a zero error as 0, never -0', () => {
    const zero = precursorEntry({ ...QUERY, centre: 1000 }, candidate(4, 0, 10_000_000_000_000), ACCESSIONS).ppm;
    expect(Object.is(zero, 0)).toBe(true);
    const tiny = precursorEntry({ ...QUERY, centre: 1000 - 1e-9 }, candidate(4, 0, 10_000_000_000_000), ACCESSIONS).ppm; // −0.000001 ppm
    expect(Object.is(tiny, 0)).toBe(true);
    expect(
      JSON.stringify(
        precursorEntry({ ...QUERY, centre: 1000 - 1e-9 }, candidate(4, 0, 10_000_000_000_000), ACCESSIONS),
      ),
    ).toContain('"ppm":0,');
  });

  it("lists accessions in the shard's order with their taxId (-1 when unknown), none for a peptide without", () => {
    expect(precursorEntry(QUERY, candidate(4, 0, 10_000_000_000_000), ACCESSIONS).accsTax).toEqual([
      { acc: 'X00001', taxId: -1 },
    ]);
    expect(precursorEntry(QUERY, candidate(5, 0, 10_000_000_000_000), ACCESSIONS).accsTax).toEqual([]);
  });

  it("writes the ProForma of the candidate's variable counts under the query's modifications", () => {
    const proformaOf = (oxidations: number) =>
      precursorEntry(QUERY, candidate(4, oxidations, 10_000_000_000_000), ACCESSIONS).proforma;
    expect([0, 1, 2].map(proformaOf)).toEqual(['MAMK', '[Oxidation]?MAMK', 'M[Oxidation]AM[Oxidation]K']);
    expect(precursorEntry(QUERY, candidate(5, 0, 10_000_000_000_000), ACCESSIONS).proforma).toBe(
      '<[Carbamidomethyl]@C>PEPCK',
    );
    expect(
      precursorEntry(
        { ...QUERY, fixed: [], variable: [] },
        { ...candidate(5, 0, 10_000_000_000_000), variableCounts: [] },
        ACCESSIONS,
      ).proforma,
    ).toBe('PEPCK');
  });
});

describe('groupEntries', () => {
  it("orders a group's entries by sequence", () => {
    const group: CandidateGroup = { key: 12_986_111, candidates: [MQE, MHP, DCM] };
    expect(groupEntries(QUERY, group, { accessions: ACCESSIONS }).map((e) => e.seq)).toEqual([
      'DCMQKAQKYK',
      'MHPAISPMIDR',
      'MQEANMLYRK',
    ]);
    expect(JSON.stringify(groupEntries(QUERY, group, { accessions: ACCESSIONS }))).toBe(
      `[${DCM_JSON},${MHP_JSON},${MQE_JSON}]`,
    );
  });

  it('orders entries of one sequence by ProForma, as strings (code units: "<" < "M" < "[")', () => {
    const group: CandidateGroup = {
      key: 10_000_000,
      candidates: [1, 2, 0].map((n) => candidate(4, n, 10_000_000_000_000)),
    };
    expect(groupEntries(QUERY, group, { accessions: ACCESSIONS }).map((e) => e.proforma)).toEqual([
      'MAMK',
      'M[Oxidation]AM[Oxidation]K',
      '[Oxidation]?MAMK',
    ]);
    const mixed: CandidateGroup = {
      key: 10_000_000,
      candidates: [
        candidate(4, 1, 10_000_000_000_000),
        candidate(5, 0, 10_000_000_000_000),
        candidate(4, 0, 10_000_000_000_000),
      ],
    };
    expect(groupEntries(QUERY, mixed, { accessions: ACCESSIONS }).map((e) => e.proforma)).toEqual([
      'MAMK',
      '[Oxidation]?MAMK',
      '<[Carbamidomethyl]@C>PEPCK',
    ]);
  });
});

describe('renderPrecursorJson', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const RESULT: PrecursorResult = {
    totalResult: 28,
    page: 1,
    pageSize: 2,
    groups: [
      { key: 12_986_103, candidates: [DYS] },
      { key: 12_986_111, candidates: [MQE, DCM, MHP] },
    ],
    hypotheses: 3,
    accessions: ACCESSIONS,
  };

  it("writes the envelope in the seed's field order, then one object per modified key", () => {
    vi.spyOn(performance, 'now').mockReturnValue(1_000 + 61_234);
    const text = new TextDecoder().decode(renderPrecursorJson(QUERY, RESULT, 1_000, () => '80 MB'));
    expect(text).toBe(
      '{"totalResult":28,"memory":"80 MB","duration":"00:01:01.234","page":1,"pageSize":2,"result":[' +
        `{"1298.6103":[${DYS_JSON}]},` +
        `{"1298.6111":[${DCM_JSON},${MHP_JSON},${MQE_JSON}]}` +
        ']}',
    );
    expect(JSON.parse(text).result.map((g: object) => Object.keys(g)[0])).toEqual(['1298.6103', '1298.6111']);
  });

  it('writes keys as Java writes the double, and no ppm without a centre', () => {
    vi.spyOn(performance, 'now').mockReturnValue(5);
    const result: PrecursorResult = {
      totalResult: 1,
      page: 3,
      pageSize: 1,
      groups: [{ key: 10_000_000, candidates: [candidate(5, 0, 10_000_000_000_000)] }],
      hypotheses: 1,
      accessions: ACCESSIONS,
    };
    expect(new TextDecoder().decode(renderPrecursorJson(RANGE_QUERY, result, 5, () => '0 MB'))).toBe(
      '{"totalResult":1,"memory":"0 MB","duration":"00:00:00.000","page":3,"pageSize":1,"result":[{"1000.0":[{"seq":"PEPCK","proforma":"<[Carbamidomethyl]@C>PEPCK","mass":1000,"accsTax":[]}]}]}',
    );
  });

  it('writes an empty page as "result":[]', () => {
    vi.spyOn(performance, 'now').mockReturnValue(3_723_004 + 10);
    const empty: PrecursorResult = {
      totalResult: 4,
      page: 9,
      pageSize: 100,
      groups: [],
      hypotheses: 2,
      accessions: ACCESSIONS,
    };
    expect(new TextDecoder().decode(renderPrecursorJson(QUERY, empty, 10, () => '41 MB'))).toBe(
      '{"totalResult":4,"memory":"41 MB","duration":"01:02:03.004","page":9,"pageSize":100,"result":[]}',
    );
  });
});

describe('precursorRows and PRECURSOR_TSV_HEADER', () => {
  it('names the seven columns, tab-separated, ending the line', () => {
    expect(PRECURSOR_TSV_COLUMNS).toEqual([
      'mass',
      'sequence',
      'proforma',
      'modifiedMass',
      'ppm',
      'accession',
      'taxId',
    ]);
    expect(PRECURSOR_TSV_HEADER).toBe('mass\tsequence\tproforma\tmodifiedMass\tppm\taccession\ttaxId\n');
  });

  const RESULT: PrecursorResult = {
    totalResult: 3,
    page: 1,
    pageSize: 3,
    groups: [
      { key: 12_986_103, candidates: [DYS] },
      { key: 12_986_111, candidates: [MQE, MHP, DCM] },
      { key: 10_000_000, candidates: [candidate(5, 0, 10_000_000_000_000), candidate(4, 2, 10_000_000_000_000)] },
    ],
    hypotheses: 3,
    accessions: ACCESSIONS,
  };

  it('writes one row per candidate–accession pair, groups in order, entries sorted, none for a peptide without accessions', () => {
    // The last group against CENTRE: (1298.623047066758 − 1000) / 1000 × 10^6 = 298623.047 → 298623.05.
    expect(precursorRows({ ...QUERY, centre: 1000 }, { ...RESULT, groups: RESULT.groups.slice(2) })).toBe(
      '1000.0\tMAMK\tM[Oxidation]AM[Oxidation]K\t1000.000000\t0\tX00001\t-1\n',
    );
    expect(precursorRows(QUERY, RESULT)).toBe(
      '1298.6103\tDYSRLTADSSGK\tDYSRLTADSSGK\t1298.610258\t9.85\tA0A0F7PXC4\t1194971\n' +
        '1298.6111\tDCMQKAQKYK\t<[Carbamidomethyl]@C>DCMQKAQKYK\t1298.611128\t9.18\tH3AVM2\t7897\n' +
        '1298.6111\tMHPAISPMIDR\tM[Oxidation]HPAISPM[Oxidation]IDR\t1298.611128\t9.18\tS0AS87\t333146\n' +
        '1298.6111\tMHPAISPMIDR\tM[Oxidation]HPAISPM[Oxidation]IDR\t1298.611128\t9.18\tT0LP04\t667135\n' +
        '1298.6111\tMQEANMLYRK\t[Oxidation]?MQEANMLYRK\t1298.611128\t9.18\tM0ZLJ1\t4113\n' +
        '1000.0\tMAMK\tM[Oxidation]AM[Oxidation]K\t1000.000000\t298623.05\tX00001\t-1\n',
    );
  });

  it('leaves ppm empty when the query has no centre', () => {
    expect(precursorRows(RANGE_QUERY, { ...RESULT, groups: RESULT.groups.slice(0, 1) })).toBe(
      '1298.6103\tDYSRLTADSSGK\tDYSRLTADSSGK\t1298.610258\t\tA0A0F7PXC4\t1194971\n',
    );
  });

  it('writes nothing for an empty page', () => {
    expect(precursorRows(QUERY, { ...RESULT, groups: [] })).toBe('');
  });
});

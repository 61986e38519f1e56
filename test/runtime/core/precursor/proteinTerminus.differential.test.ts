// Differential test of modifications of the protein N-terminus (`Acetyl@Protein N-term`, fixed and variable) in
// /api/v1/search, on a build of sample proteins with the initiator Met clipped, against a brute force written here
// from the definitions: every tryptic peptide (≤ 2 missed cleavages, 6..50 residues, none with B, X, Z) of every
// protein, at residue 0 or, after an initial M, at residue 1 a protein start; a start peptide may carry the
// modification (variable) or must (fixed), and then lists only the proteins it starts; a fixed one leaves unmodified
// only the peptides that lie inside a protein, listing those proteins.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../../runtime/api/handler.js';
import { call, folderHandler } from '../../../helpers/api.js';
import { build, removeTempDirs, sampleSubset, tempDir, writeFixture } from '../../../helpers/datasets.js';
import { prng } from '../../../helpers/prng.js';
import {
  REFERENCE_ENZYMES,
  referenceBoundaries,
  referenceFasta,
  referenceKey,
  referenceUnits,
} from '../../../helpers/reference.js';
import { referenceWindow } from '../../../helpers/referencePrecursor.js';

const RECORDS = 400;
/** Unimod 1, Acetyl: monoisotopic delta in units of 1e-10 Da. */
const ACETYL_UNITS = 420_105_646_800;
const ACETYL = encodeURIComponent('Acetyl@Protein N-term');
/** Unimod 4, Carbamidomethyl, on every C: the build's view of it is read for a query fixing it. */
const CAM_UNITS = 570_214_640_000;

interface Peptide {
  units: number;
  /** Accessions it starts, and those it lies inside. */
  starts: Set<string>;
  inside: Set<string>;
}

/** The brute force: each protein's pieces between cleavage sites and protein starts, joined up to 2 missed sites. */
function referencePeptides(fastas: string[]): Map<string, Peptide> {
  const peptides = new Map<string, Peptide>();
  for (const { accession, sequence } of fastas.flatMap((f) => referenceFasta(readFileSync(f)))) {
    const sites = referenceBoundaries(sequence, REFERENCE_ENZYMES.trypsin);
    const starts = sequence[0] === 'M' && sequence.length > 1 ? [0, 1] : [0];
    for (let start = 0; start < sequence.length; start++) {
      const isStart = starts.includes(start);
      if (!isStart && !sites.includes(start)) continue;
      const ends = sites.filter((s) => s > start).slice(0, 3);
      for (const end of ends) {
        const text = sequence.slice(start, end);
        const units = referenceUnits(text);
        if (text.length < 6 || text.length > 50 || units === null) continue;
        const entry = peptides.get(text) ?? { units, starts: new Set(), inside: new Set() };
        (isStart ? entry.starts : entry.inside).add(accession);
        peptides.set(text, entry);
      }
    }
  }
  return peptides;
}

/** An answer's entries as `proforma accessions` lines, sorted. */
const lines = (body: { result: Record<string, { proforma: string; accsTax: { acc: string }[] }[]>[] }) =>
  body.result
    .flatMap((group) => Object.values(group)[0])
    .map((e) => `${e.proforma} ${e.accsTax.map((a) => a.acc).join(',')}`)
    .sort();

let dir: string;
let handler: Handler;
let peptides: Map<string, Peptide>;

/**
 * Proteins made up beside the sample's: SAGGHK starts one (after its Met) and lies inside another, and inside the
 * first as well.
 */
const MADE_UP = [
  '>sp|Q0TST1|TST1_HUMAN Made-up one OS=Homo sapiens OX=9606',
  'MSAGGHKSAGGHKWWLLR',
  '>sp|Q0TST2|TST2_HUMAN Made-up two OS=Homo sapiens OX=9606',
  'LLRSAGGHKEEWTR',
].join('\n');

beforeAll(async () => {
  const fasta = sampleSubset(RECORDS);
  const madeUp = writeFixture(tempDir('protein-terminus-in'), 'made-up.fasta', `${MADE_UP}\n`);
  dir = join(tempDir('protein-terminus'), 'out');
  await build([fasta, madeUp], dir, { clipMet: true, shardBytes: 8192, views: ['Carbamidomethyl@C'] });
  handler = folderHandler(dir);
  peptides = referencePeptides([fasta, madeUp]);
}, 60_000);
afterAll(removeTempDirs);

/**
 * What the reference answers at mass M ± 10 ppm: modified forms of start peptides, unmodified ones as `fixed` says;
 * with `cam`, Carbamidomethyl on every C too (a global tag in the ProForma).
 */
function expected(M: number, fixed: boolean, cam: boolean): string[] {
  const { lowKey, highKey } = referenceWindow(M, 10, 10, 'ppm');
  const out: string[] = [];
  const inWindow = (units: number) => referenceKey(units) >= lowKey && referenceKey(units) <= highKey;
  const list = (accessions: Set<string>) => [...accessions].sort().join(',');
  for (const [sequence, p] of peptides) {
    const cs = cam ? [...sequence].filter((c) => c === 'C').length : 0;
    const units = p.units + cs * CAM_UNITS;
    const tag = cs > 0 ? '<[Carbamidomethyl]@C>' : '';
    if (p.starts.size > 0 && inWindow(units + ACETYL_UNITS)) out.push(`${tag}[Acetyl]-${sequence} ${list(p.starts)}`);
    const unmodified = fixed ? p.inside : new Set([...p.starts, ...p.inside]);
    if (unmodified.size > 0 && inWindow(units)) out.push(`${tag}${sequence} ${list(unmodified)}`);
  }
  return out.sort();
}

describe('Acetyl@Protein N-term', () => {
  it('the sample holds start peptides with and without the Met, and some that also lie inside a protein', () => {
    const starting = [...peptides].filter(([, p]) => p.starts.size > 0);
    expect(starting.length).toBeGreaterThan(RECORDS);
    expect(starting.some(([s]) => s.startsWith('M'))).toBe(true);
    expect(starting.some(([s]) => !s.startsWith('M'))).toBe(true);
    expect(peptides.get('SAGGHK')).toEqual({
      units: referenceUnits('SAGGHK'),
      starts: new Set(['Q0TST1']),
      inside: new Set(['Q0TST1', 'Q0TST2']),
    });
  });

  const KINDS = [
    ['variable', false],
    ['fixed', false],
    ['variable', true],
  ] as const;
  for (const [kind, cam] of KINDS) {
    const label = `as a ${kind} modification${cam ? ', with Carbamidomethyl@C fixed (read from its view)' : ''}`;
    it(`${label}, at the masses of acetylated start peptides and at random ones`, async () => {
      const random = prng(kind === 'fixed' ? 5 : cam ? 7 : 6);
      const camOf = (sequence: string) => (cam ? [...sequence].filter((c) => c === 'C').length * CAM_UNITS : 0);
      const starting = [...peptides].filter(([, p]) => p.starts.size > 0);
      let found = 0;
      for (let q = 0; q < 60; q++) {
        const M =
          q === 0
            ? (peptides.get('SAGGHK')!.units + (kind === 'fixed' ? 0 : ACETYL_UNITS)) / 1e10
            : q % 3 === 2
              ? 700 + random() * 2500
              : ((([sequence, p]) => p.units + camOf(sequence) + ACETYL_UNITS)(
                  starting[Math.floor(random() * starting.length)],
                ) as number) /
                  1e10 +
                (random() - 0.5) * 1e-5;
        const got = await call(
          handler,
          `/api/v1/search?mass=${M.toFixed(6)}&tolerance=10&${kind}=${ACETYL}&pageSize=1000${cam ? '&fixed=Carbamidomethyl@C' : ''}`,
        );
        expect(got.status, got.text).toBe(200);
        const want = expected(Number(M.toFixed(6)), kind === 'fixed', cam);
        if (cam && q === 1) expect(got.body.result.length).toBeGreaterThan(0);
        expect(lines(got.body), `mass ${M}`).toEqual(want);
        found += want.filter((line) => line.startsWith('[Acetyl]')).length;
      }
      expect(found).toBeGreaterThan(30);
    });
  }

  it('a dataset that does not record protein starts refuses it, naming the modification', async () => {
    const old = join(tempDir('protein-terminus-old'), 'out');
    await build([sampleSubset(50)], old, {});
    const manifestFile = join(old, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    delete manifest.parameters.specificity;
    delete manifest.parameters.clipMet;
    rmSync(manifestFile);
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const got = await call(folderHandler(old), `/api/v1/search?mass=1000&variable=${ACETYL}`);
    expect(got.status).toBe(400);
    expect(got.body.error).toMatch(
      /^Acetyl@Protein N-term: this dataset does not record which peptides start a protein/,
    );
  });
});

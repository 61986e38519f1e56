// builder/inputs/digest.ts digest() against OpenMS's Digestor (Debian's topp) on 150 proteins of the bundled sample:
// every enzyme, fully specific, 0..2 missed cleavages, and non-specific cleavage ('unspecific cleavage', on the first 50
// of them: every sub-sequence of each protein), compared as sets of (accession, peptide). Met clipping is not compared (Digestor 2.6 has no such option), nor semi-specific
// cleavage (Digestor has none): both are covered by the brute-force reference only (digest.test.ts). Proteins with an
// ambiguity code (B, J, X, Z) or U, O are left out: OpenMS cuts at X, B, Z and J where they might be a cutting residue,
// while our ambiguity codes never cut (and B, X, Z have no mass). Without Digestor the tests fail: install topp.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, type DigestOptions } from '../../../builder/inputs/digest.js';
import { ENZYMES } from '../../../runtime/model/enzymes.js';
import { removeTempDirs, sampleRecords, tempDir } from '../../helpers/datasets.js';
import { referenceFasta, type ReferenceProtein } from '../../helpers/reference.js';
import { OPENMS_NAMES } from '../../helpers/openmsEnzymes.js';

const execFileAsync = promisify(execFile);

/** Runs a program, at most four at a time (each Digestor takes ~40 MB). */
const waiting: (() => void)[] = [];
let running = 0;
async function run(program: string, args: string[]): Promise<void> {
  if (running >= 4) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    await execFileAsync(program, args);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const PROTEINS = 150;
const STANDARD = /^[ACDEFGHIKLMNPQRSTVWY]+$/;

interface Case {
  label: string;
  openmsEnzyme: string;
  options: DigestOptions;
  /** How many of the proteins it digests (all when absent). */
  proteins?: number;
}

/** The proteins the non-specific case digests. */
const NONSPECIFIC_PROTEINS = 50;

const CASES: Case[] = [
  ...Object.keys(ENZYMES).flatMap((enzyme) =>
    [0, 1, 2].map((missedCleavages) => ({
      label: `${enzyme}, ${missedCleavages} missed, 6..40`,
      openmsEnzyme: OPENMS_NAMES[enzyme],
      options: { enzyme, missedCleavages, minLength: 6, maxLength: 40, specificity: 'full' as const },
    })),
  ),
  {
    label: `no specificity (unspecific cleavage), 7..12, ${NONSPECIFIC_PROTEINS} proteins`,
    openmsEnzyme: 'unspecific cleavage',
    options: { enzyme: 'trypsin', missedCleavages: 0, minLength: 7, maxLength: 12, specificity: 'none' },
    proteins: NONSPECIFIC_PROTEINS,
  },
];

let dir: string;
let input: string;
let proteins: ReferenceProtein[];
/** Each case's Digestor output: its (accession, peptide) pairs, or the error running it. */
const outputs = new Map<string, Promise<Set<string>>>();

/** The pairs `accession peptide` of a FASTA of peptides whose headers are their proteins' identifiers. */
const pairsOf = (records: readonly ReferenceProtein[]) => new Set(records.map((r) => `${r.accession} ${r.sequence}`));

beforeAll(async () => {
  try {
    await run('Digestor', ['--help']);
  } catch (error) {
    throw new Error(
      `OpenMS's Digestor could not be run (${(error as Error).message}): install Debian's topp package ` +
        '(sudo apt-get install topp; .ci/run does it when Digestor is missing).',
    );
  }
  dir = tempDir('digestor');
  // The first PROTEINS records of the sample made of the 20 standard residues only.
  const text = sampleRecords(PROTEINS * 2);
  const records = text.split(/^(?=>)/m).filter((r) => STANDARD.test(r.slice(r.indexOf('\n') + 1).replace(/\s/g, '')));
  input = join(dir, 'proteins.fasta');
  writeFileSync(input, records.slice(0, PROTEINS).join(''), 'latin1');
  proteins = referenceFasta(readFileSync(input));
  const fewer = join(dir, `proteins-${NONSPECIFIC_PROTEINS}.fasta`);
  writeFileSync(fewer, records.slice(0, NONSPECIFIC_PROTEINS).join(''), 'latin1');
  // Digestor runs are queued together; each test awaits its own.
  for (const [i, { openmsEnzyme, options, proteins: count }] of CASES.entries()) {
    const out = join(dir, `peptides-${i}.fasta`);
    const args = [
      ...['-in', count === undefined ? input : fewer, '-out', out, '-FASTA:ID', 'parent', '-enzyme', openmsEnzyme],
      ...['-missed_cleavages', String(options.missedCleavages)],
      ...['-min_length', String(options.minLength), '-max_length', String(options.maxLength)],
    ];
    outputs.set(
      CASES[i].label,
      run('Digestor', args).then(() => pairsOf(referenceFasta(readFileSync(out)))),
    );
  }
  for (const output of outputs.values()) output.catch(() => {}); // awaited by the tests
});
afterAll(removeTempDirs);

describe("digest() against OpenMS's Digestor", () => {
  it(`the input is ${PROTEINS} proteins of the 20 standard residues, some starting with M`, () => {
    expect(proteins).toHaveLength(PROTEINS);
    for (const { sequence } of proteins) expect(sequence).toMatch(STANDARD);
    expect(proteins.filter((p) => p.sequence.startsWith('M')).length).toBeGreaterThan(PROTEINS / 2);
  });

  it('names an OpenMS enzyme for each of ours', () => {
    expect(Object.keys(OPENMS_NAMES).sort()).toEqual(Object.keys(ENZYMES).sort());
  });

  for (const { label, options, proteins: count = PROTEINS } of CASES) {
    it(`${label}: the same (accession, peptide) pairs`, async () => {
      const theirs = await outputs.get(label)!;
      const ours = new Set<string>();
      for (const { accession, sequence } of proteins.slice(0, count))
        digest(sequence, options, (p) => ours.add(`${accession} ${p.sequence}`));
      expect(theirs.size).toBeGreaterThan(count);
      expect([...ours].filter((pair) => !theirs.has(pair)).slice(0, 10), 'ours only').toEqual([]);
      expect([...theirs].filter((pair) => !ours.has(pair)).slice(0, 10), 'Digestor only').toEqual([]);
      expect(ours.size).toBe(theirs.size);
    });
  }
});

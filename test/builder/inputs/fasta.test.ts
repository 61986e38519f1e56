// FASTA input edge cases: the reader on its own (builder/inputs/fasta.ts) and what a build makes of small fixture
// files. Long on purpose: a case per kind of real-world FASTA damage (headers, line ends, gzip, encodings).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../../builder/errors.js';
import {
  cleanSequence,
  parseHeader,
  readFasta,
  type ProteinRecord,
  type SkipReason,
} from '../../../builder/inputs/fasta.js';
import {
  build,
  readDataset,
  readProteinTable,
  removeTempDirs,
  tempDir,
  writeFixture,
  type StoredPeptide,
} from '../../helpers/datasets.js';
import { referenceDigest, referenceKey, referenceUnits, REFERENCE_ENZYMES } from '../../helpers/reference.js';

afterAll(removeTempDirs);

describe('parseHeader', () => {
  const header = (
    accession: string,
    taxId: number | undefined,
    reviewed: boolean,
    protein: string,
    organism: string,
  ) => ({ accession, taxId, reviewed, protein, organism });

  it('reads real UniProt headers of the bundled sample: accession, OX=, sp|/tr|, protein and OS= names', () => {
    expect(
      parseHeader('tr|W0FSK4|W0FSK4_9FLAV Genome polyprotein (Fragment) OS=Dengue virus 3 OX=11069 PE=4 SV=1'),
    ).toEqual(header('W0FSK4', 11069, false, 'Genome polyprotein (Fragment)', 'Dengue virus 3'));
    expect(
      parseHeader(
        'tr|M4KW32|M4KW32_BACIU Choline ABC transporter (ATP-binding protein) OS=Bacillus subtilis XF-1 OX=1233100 GN=opuBA PE=4 SV=1',
      ),
    ).toEqual(
      header('M4KW32', 1233100, false, 'Choline ABC transporter (ATP-binding protein)', 'Bacillus subtilis XF-1'),
    );
    expect(
      parseHeader(
        'sp|Q8AWH3|SX17A_XENTR Transcription factor Sox-17-alpha OS=Xenopus tropicalis OX=8364 GN=sox17a PE=2 SV=1',
      ),
    ).toEqual(header('Q8AWH3', 8364, true, 'Transcription factor Sox-17-alpha', 'Xenopus tropicalis'));
    // OS= with parentheses, slashes, '#', ':' up to the next field.
    expect(
      parseHeader(
        'sp|C4KHV1|VATE_SULIK V-type proton ATPase subunit E OS=Sulfolobus islandicus (strain M.16.4 / Kamchatka #3) OX=426118 GN=atpE PE=3 SV=1',
      ),
    ).toEqual(
      header(
        'C4KHV1',
        426118,
        true,
        'V-type proton ATPase subunit E',
        'Sulfolobus islandicus (strain M.16.4 / Kamchatka #3)',
      ),
    );
    expect(
      parseHeader(
        'tr|D4FM25|D4FM25_STAEP Methionine import ATP-binding protein MetN OS=Staphylococcus epidermidis M23864:W2(grey) OX=525375 GN=metN PE=3 SV=1',
      ),
    ).toEqual(
      header(
        'D4FM25',
        525375,
        false,
        'Methionine import ATP-binding protein MetN',
        'Staphylococcus epidermidis M23864:W2(grey)',
      ),
    );
    expect(
      parseHeader('sp|P69905|HBA_HUMAN Hemoglobin subunit alpha OS=Homo sapiens OX=9606 GN=HBA1 PE=1 SV=2'),
    ).toEqual(header('P69905', 9606, true, 'Hemoglobin subunit alpha', 'Homo sapiens'));
  });

  it('ends each name at the first field, whatever it is (GN=, PE=, SV=, OX=, any XX=)', () => {
    expect(parseHeader('sp|P1|N_HUMAN Name GN=abc OS=Homo sapiens PE=1')).toMatchObject({
      protein: 'Name',
      organism: 'Homo sapiens',
    });
    expect(parseHeader('sp|P1|N_HUMAN Name PE=1 SV=1')).toMatchObject({ protein: 'Name', organism: '' });
    expect(parseHeader('sp|P1|N_HUMAN Name OS=Mus musculus ZZ=whatever')).toMatchObject({
      protein: 'Name',
      organism: 'Mus musculus',
    });
    // Not fields: lower case, one or three letters, no space before.
    expect(parseHeader('sp|P1|N_HUMAN Name with ab=1 A=2 ABC=3 xOX=4 OS=Homo sapiens')).toMatchObject({
      protein: 'Name with ab=1 A=2 ABC=3 xOX=4',
      organism: 'Homo sapiens',
    });
    expect(parseHeader('sp|P1|N_HUMAN   Padded   name   OS=  Padded organism   OX=9606')).toMatchObject({
      protein: 'Padded   name',
      organism: 'Padded organism',
      taxId: 9606,
    });
  });

  it('has empty names when the header has none', () => {
    expect(parseHeader('sp|P1|N_HUMAN OS=Homo sapiens OX=9606')).toEqual(header('P1', 9606, true, '', 'Homo sapiens'));
    expect(parseHeader('sp|P1|N_HUMAN')).toEqual(header('P1', undefined, true, '', ''));
    expect(parseHeader('tr|P1|')).toEqual(header('P1', undefined, false, '', ''));
    expect(parseHeader('sp|P1|N_HUMAN OS= OX=1')).toEqual(header('P1', 1, true, '', ''));
  });

  it('has no taxId without an OX= field', () => {
    expect(parseHeader('sp|P69905|HBA_HUMAN Hemoglobin OS=Homo sapiens')).toEqual(
      header('P69905', undefined, true, 'Hemoglobin', 'Homo sapiens'),
    );
    expect(parseHeader('sp|P69905|HBA_HUMAN XOX=9606 OX=abc')).toEqual(
      header('P69905', undefined, true, 'XOX=9606', ''),
    );
  });

  it('takes OX= values up to the int32 maximum only (shards store taxIds as int32)', () => {
    expect(parseHeader('X1 OX=2147483647').taxId).toBe(2_147_483_647);
    expect(parseHeader('X1 OX=2147483648').taxId).toBeUndefined();
    expect(parseHeader('X1 OX=99999999999999999999').taxId).toBeUndefined();
  });

  it('takes the first token of a non-UniProt header, the text after it as the protein name', () => {
    expect(parseHeader('ENSP00000354587 pep chromosome:GRCh38')).toEqual(
      header('ENSP00000354587', undefined, false, 'pep chromosome:GRCh38', ''),
    );
    expect(parseHeader('MYPROT')).toEqual(header('MYPROT', undefined, false, '', ''));
    expect(parseHeader('gi|123|ref|NP_1.1| thing OX=9606')).toEqual(
      header('gi|123|ref|NP_1.1|', 9606, false, 'thing', ''),
    );
    expect(parseHeader('X9 Some protein OS=Escherichia coli (strain K12) OX=83333')).toEqual(
      header('X9', 83333, false, 'Some protein', 'Escherichia coli (strain K12)'),
    );
    expect(parseHeader('  X9\tTabbed name GN=a')).toEqual(header('X9', undefined, false, 'Tabbed name', ''));
    expect(parseHeader('')).toEqual(header('', undefined, false, '', ''));
  });

  it('is reviewed exactly when the header starts with sp|', () => {
    expect(parseHeader('sp|P1|A B').reviewed).toBe(true);
    expect(parseHeader('tr|P1|A B').reviewed).toBe(false);
    expect(parseHeader('SP|P1|A B').reviewed).toBe(false);
    expect(parseHeader(' sp|P1|A B').reviewed).toBe(false);
    expect(parseHeader('P1 sp|x').reviewed).toBe(false);
  });

  it('reads names as UTF-8 when their bytes are UTF-8, else as latin1', () => {
    // readFasta hands headers over as latin1 text, one character a byte.
    const latin1 = (text: string, encoding: BufferEncoding) => Buffer.from(text, encoding).toString('latin1');
    expect(parseHeader(latin1('X1 Protéine α OS=Bactérie OX=1', 'utf8'))).toMatchObject({
      protein: 'Protéine α',
      organism: 'Bactérie',
    });
    expect(parseHeader(latin1('X1 Protéine OS=Bactérie OX=1', 'latin1'))).toMatchObject({
      protein: 'Protéine',
      organism: 'Bactérie',
    });
  });
});

describe('cleanSequence', () => {
  it('joins lines, drops white space and a trailing *, upper-cases', () => {
    expect(cleanSequence(['acdef', '', '  GHI K ', 'lm*'])).toBe('ACDEFGHIKLM');
    expect(cleanSequence(['ACDEF\r', 'GHI\t'])).toBe('ACDEFGHI');
  });

  it('reports empty and invalid sequences', () => {
    expect(cleanSequence([])).toBe('noSequence');
    expect(cleanSequence(['', '  '])).toBe('noSequence');
    expect(cleanSequence(['*'])).toBe('noSequence');
    expect(cleanSequence(['ACD1EF'])).toBe('invalidCharacters');
    expect(cleanSequence(['ACD-EF'])).toBe('invalidCharacters');
    expect(cleanSequence(['AC*DEF'])).toBe('invalidCharacters');
    expect(cleanSequence(['ACDEF**'])).toBe('invalidCharacters');
  });

  it('rejects non-ASCII letters, even those that upper-case to ASCII', () => {
    // latin1 'ß' upper-cases to 'SS', 'ÿ' to 'Ÿ': neither is an amino-acid letter.
    expect(cleanSequence(['ACDßEF'])).toBe('invalidCharacters');
    expect(cleanSequence(['ACDÿEF'])).toBe('invalidCharacters');
    expect(cleanSequence(['acdé'])).toBe('invalidCharacters');
  });
});

async function readAll(path: string): Promise<{ records: ProteinRecord[]; skipped: SkipReason[] }> {
  const skipped: SkipReason[] = [];
  const records: ProteinRecord[] = [];
  for await (const record of readFasta(path, (reason) => skipped.push(reason))) records.push(record);
  return { records, skipped };
}

// One fixture with every record kind. Expected clean records, written by hand:
const FIXTURE = [
  '>sp|P00001|ONE_HUMAN Protein one OS=Homo sapiens OX=9606 GN=ONE PE=1 SV=1',
  'ACDEFGHI',
  'MNQSTVWY',
  '',
  '>tr|Q00002|TWO_MOUSE Protein two OS=Mus musculus OX=10090',
  'gggsss',
  '',
  'tttvvv*',
  '>sp|P00003|THREE_YEAST Protein three, no taxon field OS=yeast',
  'WWWYYYFFF',
  '>ENSP00000004 a non-UniProt header',
  'HHHMMMNNN',
  '>MYPROT5',
  'QQQEEEDDD',
  '>sp|P00006|EMPTY_HUMAN No sequence OX=9606',
  '>sp|P00007|BAD_HUMAN Invalid characters OX=9606',
  'ACD1EFG',
  '>sp|P00008|BAD2_HUMAN Invalid characters OX=9606',
  'ACDE-FGHI',
  '>',
  'AAAAAAAA',
  '>tr|P00001|ONE_AGAIN A duplicate accession OS=Other OX=1234',
  'PPPGGGAAA',
  '>sp|P00009|NINE_ECOLI Two tryptic pieces OX=562',
  'MAGICKSEQVENCER',
  '>sp|P00010|TEN_HUMAN Shares a peptide with P00001 OX=9606',
  'SHAREDPEPK',
  'ACDEFGHIMNQSTVWY',
  '',
].join('\n');

const RECORDS: ProteinRecord[] = [
  {
    accession: 'P00001',
    taxId: 9606,
    reviewed: true,
    protein: 'Protein one',
    organism: 'Homo sapiens',
    sequence: 'ACDEFGHIMNQSTVWY',
  },
  {
    accession: 'Q00002',
    taxId: 10090,
    reviewed: false,
    protein: 'Protein two',
    organism: 'Mus musculus',
    sequence: 'GGGSSSTTTVVV',
  },
  {
    accession: 'P00003',
    taxId: undefined,
    reviewed: true,
    protein: 'Protein three, no taxon field',
    organism: 'yeast',
    sequence: 'WWWYYYFFF',
  },
  {
    accession: 'ENSP00000004',
    taxId: undefined,
    reviewed: false,
    protein: 'a non-UniProt header',
    organism: '',
    sequence: 'HHHMMMNNN',
  },
  { accession: 'MYPROT5', taxId: undefined, reviewed: false, protein: '', organism: '', sequence: 'QQQEEEDDD' },
  {
    accession: 'P00001',
    taxId: 1234,
    reviewed: false,
    protein: 'A duplicate accession',
    organism: 'Other',
    sequence: 'PPPGGGAAA',
  },
  {
    accession: 'P00009',
    taxId: 562,
    reviewed: true,
    protein: 'Two tryptic pieces',
    organism: '',
    sequence: 'MAGICKSEQVENCER',
  },
  {
    accession: 'P00010',
    taxId: 9606,
    reviewed: true,
    protein: 'Shares a peptide with P00001',
    organism: '',
    sequence: 'SHAREDPEPKACDEFGHIMNQSTVWY',
  },
];

/** What the dataset must hold for RECORDS (default trypsin digest), with accession → taxId as given. */
function expectedPeptides(taxIdOf: Record<string, number>): Map<string, StoredPeptide> {
  const byPeptide = new Map<string, Set<string>>();
  for (const record of RECORDS) {
    for (const peptide of referenceDigest(record.sequence, REFERENCE_ENZYMES.trypsin, 2, 6, 50)) {
      byPeptide.set(peptide, (byPeptide.get(peptide) ?? new Set()).add(record.accession));
    }
  }
  const expected = new Map<string, StoredPeptide>();
  for (const [peptide, set] of byPeptide) {
    const accessions = [...set].sort();
    expected.set(peptide, {
      key: referenceKey(referenceUnits(peptide)!),
      accessions,
      taxIds: accessions.map((a) => taxIdOf[a]),
    });
  }
  return expected;
}

const TAXIDS_WITHOUT_TSV: Record<string, number> = {
  P00001: 9606, // the first record of a duplicated accession gives its taxId
  Q00002: 10090,
  P00003: -1,
  ENSP00000004: -1,
  MYPROT5: -1,
  P00009: 562,
  P00010: 9606,
};

describe('readFasta', () => {
  it('reads the fixture records and reports the skipped ones', async () => {
    const dir = tempDir('read');
    const { records, skipped } = await readAll(writeFixture(dir, 'fixture.fasta', FIXTURE));
    expect(records).toEqual(RECORDS);
    expect(skipped).toEqual(['noSequence', 'invalidCharacters', 'invalidCharacters', 'noAccession']);
  });

  it('reads CRLF, gzip, and CRLF gzip input alike', async () => {
    const dir = tempDir('read-variants');
    const crlf = FIXTURE.replace(/\n/g, '\r\n');
    for (const path of [
      writeFixture(dir, 'crlf.fasta', crlf),
      writeFixture(dir, 'lf.fasta.gz', FIXTURE, true),
      writeFixture(dir, 'crlf.fa.gz', crlf, true),
      writeFixture(dir, 'gzip-without-extension.txt', FIXTURE, true),
    ]) {
      expect((await readAll(path)).records).toEqual(RECORDS);
    }
  });

  it('reads a gzip of several concatenated members', async () => {
    const dir = tempDir('read-members');
    const half = FIXTURE.indexOf('>MYPROT5');
    const bytes = Buffer.concat([gzipSync(FIXTURE.slice(0, half)), gzipSync(FIXTURE.slice(half))]);
    expect((await readAll(writeFixture(dir, 'members.fasta.gz', bytes))).records).toEqual(RECORDS);
  });

  it("skips a record holding 'ß' (latin1) as invalid", async () => {
    const dir = tempDir('read-latin1');
    const { records, skipped } = await readAll(writeFixture(dir, 'l1.fasta', '>X1 OX=1\nACDEFGH\n>X2 OX=1\nGGGßGGG\n'));
    expect(records.map((r) => r.accession)).toEqual(['X1']);
    expect(skipped).toEqual(['invalidCharacters']);
  });

  it('handles a last record without a final newline, and leading blank lines', async () => {
    const dir = tempDir('read-edges');
    const { records } = await readAll(writeFixture(dir, 'a.fasta', '\n\n>X1 OX=5\nACDEF\nGH'));
    expect(records).toEqual([
      { accession: 'X1', taxId: 5, reviewed: false, protein: '', organism: '', sequence: 'ACDEFGH' },
    ]);
  });

  it('rejects a non-FASTA text file, a binary file, and an empty file', async () => {
    const dir = tempDir('read-bad');
    await expect(readAll(writeFixture(dir, 'notes.txt', 'hello\n>but too late\nACDEF\n'))).rejects.toThrow(BuildError);
    await expect(
      readAll(
        writeFixture(dir, 'image.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
      ),
    ).rejects.toThrow(BuildError);
    await expect(readAll(writeFixture(dir, 'nul.fasta', Buffer.from('>X1\nACD\0\0\0EF\n', 'latin1')))).rejects.toThrow(
      /binary/,
    );
    await expect(readAll(writeFixture(dir, 'empty.fasta', ''))).rejects.toThrow(BuildError);
  });

  it('rejects a truncated gzip', async () => {
    const dir = tempDir('read-trunc');
    const gz = gzipSync(Buffer.from(FIXTURE.repeat(200)));
    await expect(readAll(writeFixture(dir, 'cut.fasta.gz', gz.subarray(0, gz.length >> 1)))).rejects.toThrow(
      /truncated or corrupt gzip/,
    );
  });
});

describe('a build of the fixture', () => {
  it('holds exactly the expected peptides, accessions and taxIds, and counts what it skipped', async () => {
    const dir = tempDir('fixture');
    const out = join(dir, 'out');
    const manifest = await build([writeFixture(dir, 'fixture.fasta', FIXTURE)], out);
    const { peptides, repeated } = readDataset(out);
    expect(repeated).toEqual([]);
    expect(peptides).toEqual(expectedPeptides(TAXIDS_WITHOUT_TSV));
    // Spot checks of the expectation itself.
    expect(peptides.get('ACDEFGHIMNQSTVWY')?.accessions).toEqual(['P00001', 'P00010']);
    expect(peptides.get('PPPGGGAAA')?.accessions).toEqual(['P00001']);
    expect([...peptides.keys()].filter((p) => p.includes('MAGICK')).sort()).toEqual(['MAGICK', 'MAGICKSEQVENCER']);
    expect(peptides.get('HHHMMMNNN')).toMatchObject({ accessions: ['ENSP00000004'], taxIds: [-1] });
    expect(peptides.get('WWWYYYFFF')).toMatchObject({ accessions: ['P00003'], taxIds: [-1] });
    expect(manifest.totals).toEqual({
      proteins: 8,
      peptides: peptides.size,
      massGroups: new Set([...peptides.values()].map((p) => p.key)).size,
      shards: 1,
      bytes: readFileSync(join(out, manifest.shards![0].file)).length,
      accessions: 7,
      reviewedAccessions: 4,
      accessionsWithoutTaxId: 3,
      duplicateAccessions: 1,
      skippedRecords: { noAccession: 1, noSequence: 1, invalidCharacters: 2 },
    });
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toEqual(manifest);
    // The protein table: each accession's first record (P00001's sp| record, not its later tr| one).
    expect(readProteinTable(out)).toEqual({
      accessions: ['ENSP00000004', 'MYPROT5', 'P00001', 'P00003', 'P00009', 'P00010', 'Q00002'],
      taxIds: [-1, -1, 9606, -1, 562, 9606, 10090],
      reviewed: [0, 0, 1, 1, 1, 1, 0],
      proteins: [
        'a non-UniProt header',
        '',
        'Protein one',
        'Protein three, no taxon field',
        'Two tryptic pieces',
        'Shares a peptide with P00001',
        'Protein two',
      ],
      organisms: ['', '', 'Homo sapiens', 'yeast', '', '', 'Mus musculus'],
    });
    // The shards' reviewed column agrees.
    for (const { shard } of readDataset(out).shards) {
      const table = Array.from(shard.accessionEnds, (end, a) =>
        shard.accessions.slice(a === 0 ? 0 : shard.accessionEnds[a - 1], end),
      );
      expect(Array.from(shard.reviewed!)).toEqual(
        table.map((a) => (['P00001', 'P00003', 'P00009', 'P00010'].includes(a) ? 1 : 0)),
      );
    }
  });

  it('CRLF, gzip and CRLF+gzip inputs build the same dataset as LF', async () => {
    const dir = tempDir('variants');
    const crlf = FIXTURE.replace(/\n/g, '\r\n');
    const inputs = {
      lf: writeFixture(dir, 'lf.fasta', FIXTURE),
      crlf: writeFixture(dir, 'crlf.fasta', crlf),
      gz: writeFixture(dir, 'lf.fasta.gz', FIXTURE, true),
      crlfGz: writeFixture(dir, 'crlf.fasta.gz', crlf, true),
    };
    const expected = expectedPeptides(TAXIDS_WITHOUT_TSV);
    const results = [];
    for (const [name, input] of Object.entries(inputs)) {
      const out = join(dir, `out-${name}`);
      const manifest = await build([input], out);
      const { peptides } = readDataset(out);
      expect(peptides, name).toEqual(expected);
      for (const [sequence, p] of peptides) {
        expect(sequence).toMatch(/^[A-Z]+$/);
        for (const accession of p.accessions) expect(accession).toMatch(/^[A-Z0-9]+$/);
      }
      results.push({ totals: manifest.totals, shards: manifest.shards!.map((s) => s.sha256) });
    }
    // The shard bytes do not depend on how the input was encoded.
    for (const r of results) expect(r).toEqual(results[0]);
  });

  it('takes taxIds of headers without OX= from --taxonomy; OX= wins over the TSV', async () => {
    const dir = tempDir('taxonomy');
    const out = join(dir, 'out');
    const tsv = writeFixture(
      dir,
      'taxonomy.tsv',
      '# accession\ttaxId\nENSP00000004\t4242\r\nP00001\t1\nUNUSED9\t77\n\n',
    );
    const manifest = await build([writeFixture(dir, 'fixture.fasta', FIXTURE)], out, { taxonomy: tsv });
    const { peptides } = readDataset(out);
    expect(peptides).toEqual(expectedPeptides({ ...TAXIDS_WITHOUT_TSV, ENSP00000004: 4242 }));
    expect(manifest.totals.accessionsWithoutTaxId).toBe(2);
    expect(manifest.sources.map((s) => s.file)).toEqual(['fixture.fasta', 'taxonomy.tsv']);
  });

  it('an OX= value beyond int32 is stored as unknown (-1), never wrapped around', async () => {
    const dir = tempDir('big-ox');
    const out = join(dir, 'out');
    const manifest = await build(
      [writeFixture(dir, 'a.fasta', '>X1 OX=3000000000\nACDEFGH\n>X2 OX=2147483647\nGGGHHHH\n')],
      out,
    );
    const { peptides } = readDataset(out);
    expect(peptides.get('ACDEFGH')).toMatchObject({ accessions: ['X1'], taxIds: [-1] });
    expect(peptides.get('GGGHHHH')).toMatchObject({ accessions: ['X2'], taxIds: [2_147_483_647] });
    expect(manifest.totals.accessionsWithoutTaxId).toBe(1);
  });

  it('a --taxonomy taxId beyond int32 is a BuildError', async () => {
    const dir = tempDir('big-tsv');
    const tsv = writeFixture(dir, 'taxonomy.tsv', 'ENSP00000004\t3000000000\n');
    await expect(
      build([writeFixture(dir, 'fixture.fasta', FIXTURE)], join(dir, 'out'), { taxonomy: tsv }),
    ).rejects.toThrow(/taxonomy.tsv line 1/);
  });

  it('a malformed --taxonomy file is a BuildError and publishes nothing', async () => {
    const dir = tempDir('taxonomy-bad');
    const out = join(dir, 'out');
    const tsv = writeFixture(dir, 'taxonomy.tsv', 'ENSP00000004 4242\n');
    await expect(build([writeFixture(dir, 'fixture.fasta', FIXTURE)], out, { taxonomy: tsv })).rejects.toThrow(
      BuildError,
    );
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
  });

  it('reads several input files as one protein set, in sorted file order', async () => {
    const dir = tempDir('multi');
    const out = join(dir, 'out');
    writeFixture(dir, 'b.fasta', '>sp|P00002|B OX=2\nPPPGGGAAA\n');
    writeFixture(dir, 'a.fasta.gz', '>sp|P00001|A OX=1\nPPPGGGAAA\n>sp|P00002|B_DUP OX=3\nGGGAAAPPP\n', true);
    const manifest = await build([join(dir, '*.fasta'), join(dir, '*.fasta.gz')], out);
    const { peptides } = readDataset(out);
    // a.fasta.gz sorts first, so its record of P00002 (OX=3) gives P00002's taxId.
    expect(peptides.get('PPPGGGAAA')).toMatchObject({ accessions: ['P00001', 'P00002'], taxIds: [1, 3] });
    expect(peptides.get('GGGAAAPPP')).toMatchObject({ accessions: ['P00002'], taxIds: [3] });
    expect(manifest.totals).toMatchObject({ proteins: 3, accessions: 2, duplicateAccessions: 1 });
    expect(manifest.sources.map((s) => s.file)).toEqual(['a.fasta.gz', 'b.fasta']);
  });
});

describe('bad input fails the build and publishes nothing', () => {
  const noManifest = (out: string) => {
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    if (existsSync(out))
      expect(readdirSync(out).filter((n) => n.startsWith('.build-') || n.endsWith('.msgpack'))).toEqual([]);
  };

  it('a glob matching no file is a BuildError', async () => {
    const dir = tempDir('noglob');
    const out = join(dir, 'out');
    await expect(build([join(dir, 'nothing-*.fasta')], out)).rejects.toThrow(BuildError);
    await expect(build([join(dir, 'nothing-*.fasta')], out)).rejects.toThrow(/matches no file/);
    noManifest(out);
  });

  it('one good glob and one matching nothing is still a BuildError', async () => {
    const dir = tempDir('halfglob');
    const out = join(dir, 'out');
    const good = writeFixture(dir, 'good.fasta', FIXTURE);
    await expect(build([good, join(dir, 'missing*.fa')], out)).rejects.toThrow(BuildError);
    noManifest(out);
  });

  it('a binary (non-FASTA) file is a BuildError', async () => {
    const dir = tempDir('binary');
    const out = join(dir, 'out');
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    await expect(build([writeFixture(dir, 'blob.bin', bytes)], out)).rejects.toThrow(BuildError);
    noManifest(out);
  });

  it('a FASTA header followed by binary content is a BuildError', async () => {
    const dir = tempDir('binary2');
    const out = join(dir, 'out');
    await expect(
      build([writeFixture(dir, 'x.fasta', Buffer.from('>sp|P1|X OX=1\nACDEF\0\u0001\u0002GH\n', 'latin1'))], out),
    ).rejects.toThrow(BuildError);
    noManifest(out);
  });

  it('a gzip holding binary data is a BuildError', async () => {
    const dir = tempDir('binary-gz');
    const out = join(dir, 'out');
    await expect(
      build(
        [
          writeFixture(
            dir,
            'x.fasta.gz',
            Uint8Array.from({ length: 1000 }, (_, i) => i % 256),
            true,
          ),
        ],
        out,
      ),
    ).rejects.toThrow(BuildError);
    noManifest(out);
  });

  it('a truncated gzip is a BuildError', async () => {
    const dir = tempDir('truncated');
    const out = join(dir, 'out');
    const gz = gzipSync(Buffer.from(FIXTURE.repeat(300)));
    const input = writeFixture(dir, 'cut.fasta.gz', gz.subarray(0, Math.floor(gz.length * 0.6)));
    await expect(build([input], out)).rejects.toThrow(/truncated or corrupt gzip/);
    await expect(build([input], out, { threads: 2 })).rejects.toThrow(BuildError);
    noManifest(out);
  });

  it('a corrupt gzip (damaged deflate data) is a BuildError', async () => {
    const dir = tempDir('corrupt');
    const out = join(dir, 'out');
    const gz = Buffer.from(gzipSync(Buffer.from(FIXTURE.repeat(300))));
    for (let i = 100; i < 140; i++) gz[i] ^= 0xff;
    await expect(build([writeFixture(dir, 'bad.fasta.gz', gz)], out)).rejects.toThrow(BuildError);
    noManifest(out);
  });

  it('a gzip with a wrong checksum is a BuildError', async () => {
    const dir = tempDir('crc');
    const out = join(dir, 'out');
    const gz = Buffer.from(gzipSync(Buffer.from(FIXTURE)));
    gz[gz.length - 8] ^= 0xff; // CRC32 in the trailer
    await expect(build([writeFixture(dir, 'crc.fasta.gz', gz)], out)).rejects.toThrow(BuildError);
    noManifest(out);
  });
});

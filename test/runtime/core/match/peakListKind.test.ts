// Tests runtime/core/match/peakListKind.ts: every real MGF of the fixtures is an MGF (plain) or gzip (compressed);
// the bundled FASTA, the README, JSON, binary data and other formats people upload by mistake are named for what
// they are.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SNIFF_BYTES, sniffPeakList } from '../../../../runtime/core/match/peakListKind.js';
import { REPO } from '../../../helpers/process.js';

const MGF_DIR = join(REPO, 'test/fixtures/mgf');
const mgfs = readdirSync(MGF_DIR).filter((f) => f.endsWith('.mgf'));
const head = (bytes: Uint8Array) => bytes.subarray(0, SNIFF_BYTES);
const text = (t: string) => new TextEncoder().encode(t);

describe('sniffPeakList', () => {
  it('takes every real MGF of the fixtures for an MGF, and its gzip for gzip', () => {
    expect(mgfs.length).toBeGreaterThanOrEqual(5);
    for (const file of mgfs) {
      const bytes = readFileSync(join(MGF_DIR, file));
      expect(sniffPeakList(head(bytes)), file).toEqual({ kind: 'mgf' });
      expect(sniffPeakList(head(gzipSync(bytes))), file).toEqual({ kind: 'gzip' });
    }
  });

  it('takes an MGF whose head is only its global parameters and comments for an MGF', () => {
    expect(sniffPeakList(text('# made by hand\nMASS=Monoisotopic\nCHARGE=2+\n'))).toEqual({ kind: 'mgf' });
    expect(sniffPeakList(text('\uFEFFBEGIN IONS\r\nPEPMASS=500\r\nEND IONS\r\n'))).toEqual({ kind: 'mgf' });
  });

  it('names what is not a peak list', () => {
    const fasta = gunzipSync(readFileSync(join(REPO, 'data/uniprot-sample.fasta.gz')));
    const cases: [Uint8Array, RegExp | { kind: string }][] = [
      [head(fasta), /^a FASTA file/],
      [head(readFileSync(join(REPO, 'README.md'))), /^text without a BEGIN IONS line \(it starts with "# /],
      [text('{"precursors": []}'), { kind: 'json' }],
      [text('  [1, 2]'), { kind: 'json' }],
      [new Uint8Array(0), /^nothing \(it is empty\)$/],
      [text(' \n\t\n'), /^nothing but white space$/],
      [new Uint8Array([0, 1, 2, 3, 0x41]), /^binary data/],
      [text('PK\x03\x04rest'), /^a zip archive$/],
      [text('%PDF-1.7'), /^a PDF document$/],
      [text('<?xml version="1.0"?>\n<indexedmzML xmlns="http://psi.hupo.org/ms/mzml">'), { kind: 'mzml' }],
      [
        text('\uFEFF<?xml version="1.0"?>\n<!-- made by msconvert -->\n<mzML xmlns="http://psi.hupo.org/ms/mzml">'),
        { kind: 'mzml' },
      ],
      [head(readFileSync(join(REPO, 'test/fixtures/sage/LQSRPAAPPAPGPGQLTLR.mzML'))), { kind: 'mzml' }],
      [text('<?xml version="1.0"?>\n<mzXML>'), /^an mzXML file/],
      [text('<!DOCTYPE html><html>'), /^an XML or HTML document$/],
      [text('H\tCreationDate\tx\nS\t1\t1\t500.1\n'), /^an MS2 file/],
      [text('500.25 1200\n501.3 800\n'), /^a list of numbers without BEGIN IONS records/],
      [
        text('------boundary\r\nContent-Disposition: form-data; name="file"\r\n\r\nBEGIN IONS\r\n'),
        /^a multipart\/form-data upload sent without its Content-Type header$/,
      ],
    ];
    for (const [bytes, expected] of cases) {
      const kind = sniffPeakList(bytes);
      if (expected instanceof RegExp) {
        expect(kind.kind, String(expected)).toBe('other');
        expect(kind.kind === 'other' && kind.looksLike, String(expected)).toMatch(expected);
      } else expect(kind).toEqual(expected);
    }
  });
});

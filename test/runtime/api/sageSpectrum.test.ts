// Sage's test data (test/fixtures/sage: one real MS2 spectrum of LQSRPAAPPAPGPGQLTLR and its protein, Q99536):
// the fixtures are the recorded bytes, and the spectrum's precursor (m/z and charge as its mzML gives them), asked of
// /api/v1/search over a dataset built from the protein, finds that peptide within a few ppm — our digestion and
// masses agree with another engine's data. The mzML itself, POSTed to /api/v1/identify with the settings of Sage's
// own test (100 peaks, ±10 ppm fragments of charge 1, ±50 ppm precursor, isotope errors −1 to 3), identifies the
// peptide at charge 3 as Sage does (21 matched peaks, hyperscore about 71.8 there): Sage deisotopes the peaks first,
// turning doubly charged fragments and isotope peaks into singly charged monoisotopic ones, which we do not, so a
// few ions fewer match here and the hyperscore is lower.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, folderHandler } from '../../helpers/api.js';
import { build, removeTempDirs, tempDir } from '../../helpers/datasets.js';
import { REPO } from '../../helpers/process.js';

const DIR = join(REPO, 'test/fixtures/sage');
afterAll(removeTempDirs);

describe("Sage's test spectrum", () => {
  it('is the recorded bytes, and its precursor finds LQSRPAAPPAPGPGQLTLR in a dataset of its protein', async () => {
    const readme = readFileSync(join(DIR, 'README.md'), 'utf8');
    for (const file of ['LQSRPAAPPAPGPGQLTLR.mzML', 'Q99536.fasta']) {
      const sha256 = createHash('sha256')
        .update(readFileSync(join(DIR, file)))
        .digest('hex');
      expect(readme, file).toContain(`| \`${file}\` |`);
      expect(readme, file).toContain(sha256);
    }
    const mzml = readFileSync(join(DIR, 'LQSRPAAPPAPGPGQLTLR.mzML'), 'utf8');
    const mz = /name="selected ion m\/z" value="([\d.]+)"/.exec(mzml)![1];
    const charge = /name="charge state" value="(\d+)"/.exec(mzml)![1];
    expect([mz, charge]).toEqual(['643.034396630915', '3']);
    const out = join(tempDir('sage'), 'shards');
    await build([join(DIR, 'Q99536.fasta')], out);
    const got = await call(folderHandler(out), `/api/v1/search?mz=${mz}&charge=${charge}&tolerance=10`);
    expect(got.status, got.text).toBe(200);
    const entries = got.body.result.flatMap(
      (group: Record<string, { seq: string; ppm: number }[]>) => Object.values(group)[0],
    );
    const found = entries.find((e: { seq: string }) => e.seq === 'LQSRPAAPPAPGPGQLTLR');
    expect(found).toBeDefined();
    expect(Math.abs(found.ppm)).toBeLessThan(5);

    const settings =
      'fixed=Carbamidomethyl@C&topPeaks=100&fragmentTolerance=10&maxFragmentCharge=1&tolerance=50&isotopeErrors=-1,0,1,2,3&reportPsms=2';
    const identified = await call(folderHandler(out), `/api/v1/identify?${settings}`, {
      method: 'POST',
      body: readFileSync(join(DIR, 'LQSRPAAPPAPGPGQLTLR.mzML')),
    });
    expect(identified.status, identified.text).toBe(200);
    const [best] = identified.body.psms;
    expect([best.peptide, best.charge, best.label, best.rank, best.isotope_error]).toEqual([
      'LQSRPAAPPAPGPGQLTLR',
      3,
      1,
      1,
      0,
    ]);
    expect(best.scannr).toBe('controllerType=0 controllerNumber=1 scan=30069');
    expect(best.matched_peaks).toBeGreaterThanOrEqual(17);
    expect(best.matched_peaks).toBeLessThanOrEqual(21);
    expect(best.hyperscore).toBeGreaterThan(55);
    expect(best.hyperscore).toBeLessThan(71.8);
    expect(best.delta_next).toBeGreaterThan(20); // nothing else in the window comes close
  });
});

// Sage's test data (test/fixtures/sage: one real MS2 spectrum of LQSRPAAPPAPGPGQLTLR and its protein, Q99536):
// the fixtures are the recorded bytes, and the spectrum's precursor (m/z and charge as its mzML gives them), asked of
// /api/v1/search over a dataset built from the protein, finds that peptide within a few ppm — our digestion and
// masses agree with another engine's data.
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
  });
});

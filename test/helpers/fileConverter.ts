// OpenMS's FileConverter (Debian's topp) as a reference reader of mzML: it decodes every array, MS-Numpress
// included, and writes them back uncompressed, which the tests' own whole-text readers then read.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './datasets.js';

/** The text of `mzml` as FileConverter writes it again (its arrays uncompressed); fails without topp. */
export function fileConverted(mzml: string): string {
  const out = join(tempDir('file-converter'), 'converted.mzML');
  try {
    execFileSync('FileConverter', ['-in', mzml, '-out', out, '-out_type', 'mzML'], { stdio: 'ignore' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error("OpenMS's FileConverter is not installed: install Debian's topp (bash .ci/run does)");
    throw e;
  }
  return readFileSync(out, 'utf8');
}

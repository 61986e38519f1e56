// NCBI's taxdump for a release build (builder/commands/release.ts): downloaded, verified, and nodes.dmp and names.dmp
// unpacked from the archive. Verified by the sha256 the user gives, else by the MD5 NCBI publishes beside the
// archive (`<url>.md5`, read first): that one guards against a damaged or cut download, not against the server.
import { readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { extract } from 'tar';
import { downloadWithRetries, DownloadError } from './download.js';
import { BuildError } from '../errors.js';
import { TAXDUMP_FILES } from './taxdump.js';

export const NCBI_TAXDUMP_URL = 'https://ftp.ncbi.nlm.nih.gov/pub/taxonomy/taxdump.tar.gz';

export interface TaxdumpSource {
  url: string;
  /** Expected sha256 of the archive; without it, NCBI's `<url>.md5` is checked. */
  sha256?: string;
  /** Build even when no checksum can be had (no sha256 given, no `<url>.md5`). */
  unverified: boolean;
}

/** The downloaded taxdump: its folder (nodes.dmp, names.dmp) and what the manifest's release records of it. */
export interface FetchedTaxdump {
  dir: string;
  release: Record<string, string>;
}

/** Downloads, verifies and unpacks the taxdump into `work`; a BuildError (nothing built) when any step fails. */
export async function fetchTaxdump(
  source: TaxdumpSource,
  work: string,
  log: (line: string) => void,
): Promise<FetchedTaxdump> {
  const name = basename(new URL(source.url).pathname).replace(/[^A-Za-z0-9._-]/g, '_') || 'taxdump.tar.gz';
  const expectedMd5 =
    source.sha256 === undefined ? await publishedMd5(source, join(work, `${name}.md5`), log) : undefined;
  const archive = join(work, name);
  log(`download: ${source.url}`);
  const got = await downloadWithRetries(source.url, archive, log);
  let verified: 'sha256' | 'md5' | 'false' = 'false';
  if (source.sha256 !== undefined) {
    if (got.sha256 !== source.sha256)
      throw new BuildError(
        `sha256 mismatch for ${source.url}: expected ${source.sha256}, got ${got.sha256} (${got.bytes} bytes); nothing was built or published`,
      );
    verified = 'sha256';
  } else if (expectedMd5 !== undefined) {
    if (got.md5 !== expectedMd5)
      throw new BuildError(
        `md5 mismatch for ${source.url}: ${source.url}.md5 says ${expectedMd5}, got ${got.md5} (${got.bytes} bytes); nothing was built or published`,
      );
    verified = 'md5';
  }
  log(
    `download: ${got.bytes} bytes, sha256 ${got.sha256} ${verified === 'false' ? '(unverified: no checksum)' : `verified (${verified})`}`,
  );
  const dir = join(work, 'taxdump');
  await unpackTaxdump(archive, dir);
  return {
    dir,
    release: {
      taxdumpUrl: source.url,
      taxdumpSha256: got.sha256,
      taxdumpVerified: verified,
      ...(got.lastModified ? { taxdumpLastModified: got.lastModified } : {}),
    },
  };
}

/**
 * The MD5 NCBI publishes at `<url>.md5` (`<hex>  taxdump.tar.gz`); undefined when there is none and unverified builds
 * are allowed.
 */
async function publishedMd5(
  source: TaxdumpSource,
  file: string,
  log: (line: string) => void,
): Promise<string | undefined> {
  const url = `${source.url}.md5`;
  try {
    await downloadWithRetries(url, file, log);
  } catch (e) {
    if (!(e instanceof DownloadError)) throw e;
    if (source.unverified) {
      log(`${e.message}: the taxdump is not verified`);
      return undefined;
    }
    throw new BuildError(
      `no checksum for the taxdump: ${e.message}; give --taxdump-sha256 <hex>, or --unverified to build without one`,
    );
  }
  const md5 = /^([0-9a-f]{32})(\s|$)/i.exec(readFileSync(file, 'latin1'))?.[1];
  if (!md5) throw new BuildError(`${url} does not start with an MD5 sum (32 hex digits)`);
  return md5.toLowerCase();
}

/** Unpacks nodes.dmp and names.dmp (regular files at the archive's top level) from a .tar.gz into `dir`. */
export async function unpackTaxdump(archive: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const wanted = new Set<string>(TAXDUMP_FILES);
  try {
    await extract({
      file: archive,
      cwd: dir,
      strict: true,
      filter: (path, entry) =>
        wanted.has(path.replace(/^\.\//, '')) && 'type' in entry && (entry.type === 'File' || entry.type === 'OldFile'),
    });
  } catch (e) {
    throw new BuildError(`${basename(archive)} is not a readable .tar.gz: ${(e as Error).message.split('\n')[0]}`);
  }
  for (const file of TAXDUMP_FILES) {
    if (!statSync(join(dir, file), { throwIfNoEntry: false })?.isFile())
      throw new BuildError(`${basename(archive)} holds no ${file} at its top level`);
  }
}

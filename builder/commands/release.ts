// Command line (`npm run build:release`): rebuild from a UniProt release. Downloads the FASTA (streamed to a
// temporary file while hashing), verifies its sha256, downloads NCBI's taxdump (builder/inputs/taxdumpRelease.ts), then
// builds and publishes the dataset with the release recorded in the manifest. A failed download, a checksum
// mismatch or a bad archive stops before the build starts, so the published dataset stays exactly as it was.
//   npm run build:release -- [--url <fasta.gz url>] (--sha256 <hex> | --unverified) [--out dist/shards]
//                            [--name 2025_01] [--date 05-Feb-2025] [--threads N] [--shard-bytes N]
//                            [--taxdump-url <url>] [--taxdump-sha256 <hex>] [--no-taxdump] [--sequences]
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import fg from 'fast-glob';
import { tmpdir } from 'zx';
import { integerFlag, runCommand, unknownOption } from './command.js';
import { DEFAULT_DIGEST } from '../inputs/digest.js';
import { downloadWithRetries } from '../inputs/download.js';
import { BuildError } from '../errors.js';
import { buildDataset, DEFAULT_SHARD_BYTES } from '../phases/pipeline.js';
import { fetchTaxdump, NCBI_TAXDUMP_URL, type TaxdumpSource } from '../inputs/taxdumpRelease.js';

const SWISS_PROT_URL =
  'https://ftp.uniprot.org/pub/databases/uniprot/current_release/knowledgebase/complete/uniprot_sprot.fasta.gz';
const DEFAULT_OUT = 'dist/shards';

const USAGE = `usage: npm run build:release -- [--url <url>] (--sha256 <hex> | --unverified) [--out <dir>]
  [--name <release name>] [--date <release date>] [--threads N] [--shard-bytes N]
  [--taxdump-url <url>] [--taxdump-sha256 <hex>] [--no-taxdump] [--sequences]
  --url        FASTA (plain or gzip) to download; env RELEASE_URL; default ${SWISS_PROT_URL}
  --sha256     expected sha256 of the download; env RELEASE_SHA256. A mismatch aborts before building.
  --unverified build without an expected checksum (env RELEASE_UNVERIFIED=1); the sha256 is still recorded
  --out        dataset folder to publish into (default ${DEFAULT_OUT}); its previous dataset is kept on failure
  --name/--date  the release's name and date (env RELEASE_NAME / RELEASE_DATE), recorded in the manifest
  --taxdump-url     NCBI taxdump (.tar.gz holding nodes.dmp and names.dmp); env RELEASE_TAXDUMP_URL;
                    default ${NCBI_TAXDUMP_URL}
  --taxdump-sha256  expected sha256 of the taxdump; env RELEASE_TAXDUMP_SHA256. Without it, the MD5 NCBI
                    publishes at <taxdump-url>.md5 must match (none there: refused unless --unverified)
  --no-taxdump      build without a taxonomy
  --sequences       also write the proteins' sequences (fingerprint coverage; roughly the FASTA's residues gzipped)`;

interface Options {
  url: string;
  sha256?: string;
  out: string;
  name?: string;
  date?: string;
  threads: number;
  shardBytes: number;
  /** NCBI's taxdump to build with; undefined with --no-taxdump. */
  taxdump?: TaxdumpSource;
  sequences: boolean;
}

const STRING_FLAGS = [
  'url',
  'sha256',
  'out',
  'name',
  'date',
  'threads',
  'shard-bytes',
  'taxdump-url',
  'taxdump-sha256',
] as const;
const FLAGS = {
  ...Object.fromEntries(STRING_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
  unverified: { type: 'boolean' as const },
  taxdump: { type: 'boolean' as const },
  sequences: { type: 'boolean' as const },
  help: { type: 'boolean' as const },
};

/** Each flag's values in the order given (`true`/`false` for boolean flags); "" for a string flag without a value. */
function flagValues(argv: string[]): Map<string, (string | boolean)[]> {
  // A flag (or `--`) right after a string flag is not its value: the string flag has none.
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const isString = (arg: string) => arg.startsWith('--') && (STRING_FLAGS as readonly string[]).includes(arg.slice(2));
  const args = argv.map((arg, i) =>
    i < end && isString(arg) && /^(--$|--?[^-])/.test(argv[i + 1] ?? '') ? `${arg}=` : arg,
  );
  // Not strict: every problem is reported below, in this command's own words. Arguments after `--` are ignored.
  const { tokens } = parseArgs({ args, options: FLAGS, strict: false, allowPositionals: true, tokens: true });
  const given = new Map<string, (string | boolean)[]>();
  for (const token of tokens) {
    if (token.kind === 'option-terminator') break;
    if (token.kind === 'positional') throw new BuildError(`unexpected argument "${token.value}" (see --help)`);
    // `--no-<boolean flag>` turns it off.
    const negated =
      token.name.startsWith('no-') && FLAGS[token.name.slice(3) as keyof typeof FLAGS]?.type === 'boolean';
    const name = negated ? token.name.slice(3) : token.name;
    if (!Object.hasOwn(FLAGS, name)) throw unknownOption(token.rawName, Object.keys(FLAGS));
    const value =
      FLAGS[name as keyof typeof FLAGS].type === 'boolean' ? !negated && token.value !== 'false' : (token.value ?? '');
    given.set(name, [...(given.get(name) ?? []), value]);
  }
  return given;
}

function parseOptions(argv: string[]): Options | 'help' {
  const given = flagValues(argv);
  if (given.get('help')?.at(-1) === true) return 'help';
  for (const flag of STRING_FLAGS) {
    const values = given.get(flag) ?? [];
    if (values.length > 1) throw new BuildError(`--${flag} is given more than once`);
    if (values[0] === '') throw new BuildError(`--${flag} needs a value`);
  }
  const env = process.env;
  const text = (flag: string, variable?: string): string | undefined =>
    (given.get(flag)?.[0] as string | undefined) ?? (variable ? env[variable] || undefined : undefined);
  const url = text('url', 'RELEASE_URL') ?? SWISS_PROT_URL;
  if (!/^https?:\/\//i.test(url)) throw new BuildError(`--url must be an http(s) URL, got "${url}"`);
  const sha256 = text('sha256', 'RELEASE_SHA256')?.toLowerCase();
  const unverified = given.get('unverified')?.at(-1) === true || env.RELEASE_UNVERIFIED === '1';
  if (sha256 !== undefined && !/^[0-9a-f]{64}$/.test(sha256))
    throw new BuildError(`--sha256 must be 64 hex digits, got "${sha256}"`);
  if (sha256 === undefined && !unverified)
    throw new BuildError(
      'no expected checksum: give --sha256 <hex> (or RELEASE_SHA256), or --unverified to build without one',
    );
  if (sha256 !== undefined && unverified) throw new BuildError('give either --sha256 or --unverified, not both');
  const taxdumpUrl = text('taxdump-url', 'RELEASE_TAXDUMP_URL') ?? NCBI_TAXDUMP_URL;
  if (!/^https?:\/\//i.test(taxdumpUrl))
    throw new BuildError(`--taxdump-url must be an http(s) URL, got "${taxdumpUrl}"`);
  const taxdumpSha256 = text('taxdump-sha256', 'RELEASE_TAXDUMP_SHA256')?.toLowerCase();
  if (taxdumpSha256 !== undefined && !/^[0-9a-f]{64}$/.test(taxdumpSha256))
    throw new BuildError(`--taxdump-sha256 must be 64 hex digits, got "${taxdumpSha256}"`);
  const withTaxdump = given.get('taxdump')?.at(-1) !== false;
  if (!withTaxdump && (given.has('taxdump-url') || given.has('taxdump-sha256')))
    throw new BuildError('--no-taxdump and --taxdump-url/--taxdump-sha256 contradict each other');
  return {
    url,
    sha256,
    out: text('out') ?? DEFAULT_OUT,
    name: text('name', 'RELEASE_NAME'),
    date: text('date', 'RELEASE_DATE'),
    threads: integerFlag('threads', text('threads'), Math.min(4, availableParallelism())),
    shardBytes: integerFlag('shard-bytes', text('shard-bytes'), DEFAULT_SHARD_BYTES),
    taxdump: withTaxdump ? { url: taxdumpUrl, sha256: taxdumpSha256, unverified } : undefined,
    sequences: given.get('sequences')?.at(-1) === true,
  };
}

/** Downloads into a temporary folder, verifies, builds and publishes; the download is removed in any case. */
async function rebuild(options: Options, log: (line: string) => void): Promise<void> {
  const work = tmpdir('digested-peptides-release-');
  try {
    // The input keeps the release's file name (it is recorded in the manifest's sources).
    const name = basename(new URL(options.url).pathname).replace(/[^A-Za-z0-9._-]/g, '_') || 'release.fasta';
    const file = join(work, name);
    const retrieved = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    log(`download: ${options.url}`);
    const { sha256, bytes, lastModified } = await downloadWithRetries(options.url, file, log);
    if (options.sha256 !== undefined && sha256 !== options.sha256) {
      throw new BuildError(
        `sha256 mismatch for ${options.url}: expected ${options.sha256}, got ${sha256} (${bytes} bytes); nothing was built or published`,
      );
    }
    log(
      `download: ${bytes} bytes, sha256 ${sha256} ${options.sha256 ? 'verified' : '(unverified: no expected checksum given)'}`,
    );
    const taxdump = options.taxdump ? await fetchTaxdump(options.taxdump, work, log) : undefined;

    const release: Record<string, string> = {
      url: options.url,
      sha256,
      verified: options.sha256 ? 'true' : 'false',
      retrieved,
      ...(lastModified ? { lastModified } : {}),
      ...(options.name ? { name: options.name } : {}),
      ...(options.date ? { date: options.date } : {}),
      ...taxdump?.release,
    };
    const manifest = await buildDataset({
      ...DEFAULT_DIGEST,
      inputs: [fg.escapePath(file)],
      taxdump: taxdump?.dir,
      out: options.out,
      shardBytes: options.shardBytes,
      threads: options.threads,
      sequences: options.sequences,
      log,
      release,
    });
    log(
      `published dataset ${manifest.datasetVersion} (${manifest.totals.shards} shards) of ${options.url} into ${options.out}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await runCommand('build:release', async () => {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') process.stdout.write(USAGE + '\n');
  else await rebuild(options, (line) => process.stderr.write(line + '\n'));
});

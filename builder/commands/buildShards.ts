// The build command's body: its flags read into BuildOptions, then the dataset (or one part of it) built. The
// command line (cli.ts) runs it on process.argv; benchmarks run it in their own process.
import { availableParallelism } from 'node:os';
import { integerFlag, parseFlags } from './command.js';
import { DEFAULT_DIGEST } from '../inputs/digest.js';
import { ENZYMES } from '../../runtime/model/enzymes.js';
import { BuildError } from '../errors.js';
import { buildDataset, buildPart, DEFAULT_SHARD_BYTES, type BuildOptions } from '../phases/pipeline.js';
import { parsePart } from '../phases/slices.js';
import type { ProgressMeter } from '../phases/progress.js';

const USAGE = `usage: npm run build:shards -- --input <glob> [--input <glob> ...] --out <dir>
  [--enzyme ${Object.keys(ENZYMES).join('|')}]
  [--specificity full|semi|none] [--clip-met] [--missed-cleavages ${DEFAULT_DIGEST.missedCleavages}]
  [--min-length ${DEFAULT_DIGEST.minLength}] [--max-length ${DEFAULT_DIGEST.maxLength}] [--taxonomy <tsv>] [--taxdump <dir>]
  [--shard-bytes ${DEFAULT_SHARD_BYTES}] [--compression br|gzip] [--threads N] [--release name=value ...] [--part i/N]
  [--folder-digits 0..4] [--view Carbamidomethyl@C ...] [--sequences]
  --enzyme name     where the enzyme cuts, by its PSI-MS rule (runtime/model/enzymes.ts; default trypsin)
  --specificity s   full (default): both ends at cleavage sites or protein termini; semi: at least one end;
                    none: every sub-sequence of the length range (missed cleavages then do not limit it)
  --clip-met        also digest each protein starting with M without its initiator Met (position 1 is then a
                    protein N-terminus too, for the specificity and for Protein N-term modifications)
  --taxonomy <tsv>  accession<TAB>taxId lines, for headers without OX=
  --taxdump <dir>   NCBI Taxonomy's nodes.dmp and names.dmp (taxdump.tar.gz, unpacked): the dataset holds the
                    lineages of its organisms, with peptide counts per taxon (see docs/format.md)
  --folder-digits d place every file but the manifest in a folder named by the first d hex digits of its
                    sha256 (default 0: one flat folder): ~files / 16^d files a folder. Use 2 past ~50,000 files
                    (hosts such as Netlify cap a folder at ~54,000), 3 past ~12 M (TrEMBL: ~18 M shards)
  --view Name@Letters  a view for a fixed modification on residues (e.g. Carbamidomethyl@C, the alkylation of
                    nearly every sample): its peptides keyed by their mass with it on every such residue, so a
                    precursor search with it fixed reads one range a hypothesis (docs/format.md "Views")
  --view 'fixed=Name@Letters&variable=Name@Letters&maxVariable=n'  a complete view (e.g. fixed=Carbamidomethyl@C
                    &variable=Oxidation@M&maxVariable=2): every peptide once per count of the variable modification
                    up to n, keyed by its modified mass, so a precursor search with exactly these modifications
                    (maxVariable up to n) reads one range; ~1.5x the dataset's shards for Oxidation@M
  --sequences       also write the sequence table: each accession's residues (of its first record), in pages by
                    accession (docs/format.md "Sequence table"); adds about the input's residues, compressed
  --part i/N        build part i of N of a partitioned build: read and digest every input, keep only the i-th
                    of N mass slices (balanced on a sample of the input; each view's keys are sliced alike),
                    write a part folder into --out;
                    npm run build:merge joins the N part folders into the dataset a single build writes`;

/** `--release name=2025_01 --release url=...` as an object, recorded in the manifest. */
function releaseFields(pairs: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new BuildError(`--release takes name=value, got "${pair}"`);
    fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return fields;
}

/**
 * `npm run build:shards -- <args>`: prints the usage for --help, else builds, logging progress lines to `log` (and
 * to `meter` when given). Throws a BuildError on bad flags or inputs.
 */
export async function buildShards(args: string[], log: (line: string) => void, meter?: ProgressMeter): Promise<void> {
  const { values } = parseFlags({
    args,
    options: {
      input: { type: 'string', multiple: true },
      out: { type: 'string' },
      enzyme: { type: 'string' },
      specificity: { type: 'string' },
      'clip-met': { type: 'boolean' },
      'missed-cleavages': { type: 'string' },
      'min-length': { type: 'string' },
      'max-length': { type: 'string' },
      taxonomy: { type: 'string' },
      taxdump: { type: 'string' },
      'shard-bytes': { type: 'string' },
      compression: { type: 'string' },
      threads: { type: 'string' },
      release: { type: 'string', multiple: true },
      part: { type: 'string' },
      'folder-digits': { type: 'string' },
      view: { type: 'string', multiple: true },
      sequences: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.input?.length || !values.out) throw new BuildError('--input and --out are required (see --help)');
  const options: BuildOptions = {
    inputs: values.input,
    out: values.out,
    enzyme: values.enzyme ?? DEFAULT_DIGEST.enzyme,
    specificity: values.specificity as BuildOptions['specificity'],
    clipMet: values['clip-met'] ?? false,
    missedCleavages: integerFlag('missed-cleavages', values['missed-cleavages'], DEFAULT_DIGEST.missedCleavages),
    minLength: integerFlag('min-length', values['min-length'], DEFAULT_DIGEST.minLength),
    maxLength: integerFlag('max-length', values['max-length'], DEFAULT_DIGEST.maxLength),
    taxonomy: values.taxonomy,
    taxdump: values.taxdump,
    shardBytes: integerFlag('shard-bytes', values['shard-bytes'], DEFAULT_SHARD_BYTES),
    compression: values.compression as BuildOptions['compression'],
    threads: integerFlag('threads', values.threads, Math.min(2, availableParallelism())),
    log,
    meter,
    release: values.release ? releaseFields(values.release) : undefined,
    folderDigits: integerFlag('folder-digits', values['folder-digits'], 0),
    views: values.view ?? [],
    sequences: values.sequences ?? false,
  };
  if (values.part === undefined) await buildDataset(options);
  else await buildPart(options, parsePart(values.part));
}

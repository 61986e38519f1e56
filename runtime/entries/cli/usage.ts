// The offline tool's command-line flags and usage text, both generated from the endpoints' parameter tables.
import { endpointByCommand, GET_ENDPOINTS, type Endpoint } from '../../api/endpoints.js';
import { DEFAULT_BATCH } from '../../core/match/match.js';
import { flagOf, type Param } from '../../api/params.js';

/** What stands for a value of each kind in the usage text. */
const PLACEHOLDER: Record<Param['kind'], string> = {
  mass: 'Da',
  integer: 'N',
  sequence: 'SEQ',
  number: 'X',
  choice: '',
  modifications: 'Name@Sites,..',
  taxa: 'TAXID,..',
  text: 'TEXT',
};

/** `--page-size N` style text of one parameter. */
const flagText = (param: Param) =>
  `--${flagOf(param.name)} ${param.kind === 'choice' ? param.choices!.join('|') : PLACEHOLDER[param.kind]}`;

/**
 * A command's parameters on one line: required ones plain, optional ones in brackets with their default,
 * and parameters read only `unless` another is given shown as its alternative (`--peptide SEQ | --mass1 Da ..`).
 */
export function paramsText(params: readonly Param[]): string {
  const alternatives = new Map<string, Param[]>();
  for (const p of params)
    if (p.unless !== undefined) alternatives.set(p.unless, [...(alternatives.get(p.unless) ?? []), p]);
  const parts: string[] = [];
  for (const p of params) {
    if (p.unless !== undefined) continue;
    const others = alternatives.get(p.name);
    if (others) parts.push(`${flagText(p)} | ${others.map(flagText).join(' ')}`);
    else if (p.required) parts.push(flagText(p));
    else parts.push(`[${flagText(p)}${p.default !== undefined ? ` (${p.default})` : ''}]`);
  }
  return parts.join(' ');
}

/** The options every command that reads a dataset takes beside its parameters, with what they do. */
export const COMMON_OPTIONS: Record<string, string> = {
  shards: 'dataset folder or base URL (default: $SHARDS_DIR or ./shards)',
  format: 'json (the API answer) or tsv',
  out: 'write the output to this file (written whole or not at all) instead of standard output',
};

/**
 * One command's help: its synopsis, then each option with its description (the parameter table's, for an
 * endpoint's parameters; `extra` for the command's own).
 */
export function commandHelp(
  command: string,
  synopsis: string,
  params: readonly Param[],
  extra: Record<string, string>,
): string {
  const rows: [string, string][] = [
    ...params.map((p): [string, string] => [
      flagText(p) + (p.aliases?.length ? ` (or ${p.aliases.map((a) => `--${flagOf(a)}`).join(', ')})` : ''),
      p.description.replace(/`/g, ''),
    ]),
    ...Object.entries(extra).map(([flag, text]): [string, string] => [`--${flag}`, text]),
  ];
  const width = Math.min(32, Math.max(...rows.map(([flag]) => flag.length)));
  return [
    `usage: npm run query -- ${command} ${synopsis}`,
    '',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
  ].join('\n');
}

/** The bulk commands' synopses (mirror.ts, archive.ts), also shown with their usage errors. */
export const MIRROR_USAGE = 'mirror <dir|url> <out-dir> [--concurrency N (8)] [--mass Da-Da]';
export const ARCHIVE_USAGE = 'archive --slices N --out <dir> [--shards <dir>]';

const line = (command: string, text: string) => `  ${command.padEnd(16)} ${text}`;

export function usage(exportParams: readonly Param[]): string {
  const endpointLine = (e: Endpoint) => line(e.command, `${paramsText(e.params)}   (as ${e.path})`);
  return [
    'usage: npm run query -- <command> [options]',
    ...GET_ENDPOINTS.map(endpointLine),
    line('', '[--format json|tsv]'),
    line('export', `${paramsText(exportParams)}   the whole range as TSV, no paging`),
    line(
      'match',
      `<file.mgf|.mzML|.gz|-> ${paramsText(endpointByCommand('match')!.params)} [--format tsv|json] [--batch N (${DEFAULT_BATCH})] [--concurrency N (6)]`,
    ),
    line('', 'every spectrum of a peak list, as /api/v1/search answers its precursor (all candidates), in file order'),
    line(
      'identify',
      '<file.mgf|.mzML|.gz|-> [--fragment-tolerance 20 --fragment-unit ppm|Da] [--isotope-errors 0,1] …',
    ),
    line('', 'peptides identified from MS/MS spectra: scored PSMs, target-decoy q-values, proteins and organisms'),
    line(
      'fingerprint',
      '<file|-> [--tolerance 50 --unit ppm|Da] [--ion mh|neutral | --charge N] [--top-peaks N] [--rank species] …',
    ),
    line('', 'peptide mass fingerprinting: the proteins and organisms explaining each peak list (text, MGF, mzML MS1)'),
    line('openapi', 'the OpenAPI document of the API'),
    line('mirror', MIRROR_USAGE.slice('mirror '.length)),
    line('', 'copies a dataset, verified and resumable (with --mass: only the shards meeting that range)'),
    line('archive', ARCHIVE_USAGE.slice('archive '.length)),
    line('', 'tar archives of a dataset folder: N mass slices of its shards, balanced by bytes, and one of the rest'),
    'options of every command: --shards <dir|url>   dataset folder or base URL (default: $SHARDS_DIR or ./shards)',
    'TSV columns: mass, sequence, accession, taxId (one row per peptide-accession pair)',
  ].join('\n');
}

// Streaming FASTA reader: plain or gzip files to protein records (accession, taxId, clean sequence).
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { MAX_TAX_ID } from '../runtime/model/format.js';

export interface ProteinRecord {
  accession: string;
  /** NCBI taxId from the header's OX= field; undefined when the header has none. */
  taxId: number | undefined;
  sequence: string;
}

/** Why a record was skipped; counted in the manifest's totals. */
export type SkipReason = 'noAccession' | 'noSequence' | 'invalidCharacters';

/** A one-line, user-facing build error (the CLI prints its message and exits non-zero). */
export class BuildError extends Error {}

/** Accession and taxId from a header line (without '>'): UniProt `db|ACC|NAME ... OX=9606`, else first token. */
export function parseHeader(header: string): { accession: string; taxId: number | undefined } {
  const uniprot = /^(?:sp|tr)\|([^|\s]+)\|/.exec(header);
  const accession = uniprot ? uniprot[1] : (header.trim().split(/\s+/)[0] ?? '');
  const ox = /(?:^|\s)OX=(\d+)(?:\s|$)/.exec(header);
  // Shards store taxIds as int32: a larger OX= value is malformed, not a taxId to wrap around.
  const taxId = ox ? Number(ox[1]) : NaN;
  return { accession, taxId: taxId <= MAX_TAX_ID ? taxId : undefined };
}

/** Upper-cased sequence without white space or a trailing '*', or the reason it is unusable. */
export function cleanSequence(lines: string[]): string | SkipReason {
  let sequence = lines.join('').replace(/\s+/g, '');
  if (sequence.endsWith('*')) sequence = sequence.slice(0, -1);
  if (sequence.length === 0) return 'noSequence';
  // Checked before upper-casing: toUpperCase() turns some non-letters into letters (latin1 'ß' → 'SS').
  return /^[A-Za-z]+$/.test(sequence) ? sequence.toUpperCase() : 'invalidCharacters';
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r').catch((e: NodeJS.ErrnoException) => {
    throw new BuildError(`cannot read ${path}: ${e.code ?? e.message}`);
  });
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Reads the records of one FASTA file in order. Skipped records are reported through `onSkip`;
 * `onBytes` receives the count of file bytes read so far (for progress). Throws BuildError when the file
 * is unreadable, not FASTA, or a truncated/corrupt gzip.
 */
export async function* readFasta(
  path: string,
  onSkip: (reason: SkipReason, header: string) => void,
  onBytes: (bytesRead: number) => void = () => {},
): AsyncGenerator<ProteinRecord> {
  const name = basename(path);
  const gzip = await isGzip(path);
  const file = createReadStream(path);
  file.on('data', () => onBytes(file.bytesRead));
  const text = gzip ? file.pipe(createGunzip()) : file;
  let failure: Error | undefined;
  const fail = (e: NodeJS.ErrnoException) => {
    failure ??= new BuildError(gzip && e.code?.startsWith('Z_') ? `${name}: truncated or corrupt gzip (${e.message})` : `${name}: ${e.message}`);
    text.destroy();
  };
  file.on('error', fail);
  text.on('error', fail);
  text.setEncoding('latin1');
  const lines = createInterface({ input: text, crlfDelay: Infinity });

  let header: string | undefined;
  let body: string[] = [];
  const finish = (): ProteinRecord | undefined => {
    if (header === undefined) return undefined;
    const { accession, taxId } = parseHeader(header);
    const sequence = cleanSequence(body);
    if (!accession) onSkip('noAccession', header);
    else if (sequence === 'noSequence' || sequence === 'invalidCharacters') onSkip(sequence, header);
    else return { accession, taxId, sequence };
    return undefined;
  };
  let sawRecord = false;
  try {
    for await (const raw of lines) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.startsWith('>')) {
        const record = finish();
        if (record) yield record;
        header = line.slice(1);
        body = [];
        sawRecord = true;
      } else if (header === undefined) {
        if (line.trim() !== '') throw new BuildError(`${name}: not a FASTA file (first line does not start with '>')`);
      } else {
        if (line.includes('\0')) throw new BuildError(`${name}: not a FASTA file (binary content)`);
        body.push(line);
      }
    }
  } catch (e) {
    throw failure ?? e;
  } finally {
    text.destroy();
  }
  if (failure) throw failure;
  const record = finish();
  if (record) yield record;
  if (!sawRecord) throw new BuildError(`${name}: not a FASTA file (no '>' header line)`);
}

// Streaming FASTA reader: plain or gzip files to protein records (accession, taxId, reviewed flag, protein and
// organism names from the header, clean sequence).
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { BuildError } from '../errors.js';
import { MAX_TAX_ID } from '../../runtime/model/format.js';

/** What a header line says about its protein. */
export interface HeaderFields {
  accession: string;
  /** NCBI taxId from the header's OX= field; undefined when the header has none. */
  taxId: number | undefined;
  /** UniProtKB/Swiss-Prot: the header starts with `sp|`. */
  reviewed: boolean;
  /**
   * The protein name: the text before the first ` XX=` field, after the entry name (UniProt) or first token; "" when
   * none.
   */
  protein: string;
  /** The organism name: the value of ` OS=` up to the next ` XX=` field; "" when none. */
  organism: string;
}

export interface ProteinRecord extends HeaderFields {
  sequence: string;
}

/** Why a record was skipped; counted in the manifest's totals. */
export type SkipReason = 'noAccession' | 'noSequence' | 'invalidCharacters';

/** A header field: a space, two upper-case letters and `=` (` OS=`, ` OX=`, ` GN=`, ...). */
const FIELD = / [A-Z]{2}=/g;

/** Where the first ` XX=` field at or after `from` starts, or the header's length. */
function fieldStart(header: string, from: number): number {
  FIELD.lastIndex = from;
  return FIELD.exec(header)?.index ?? header.length;
}

/**
 * A header line (without '>'): UniProt `db|ACC|ENTRY_NAME protein name OS=organism OX=9606 [GN=..] PE=.. SV=..`,
 * else accession = first token, protein name = the text after it up to the first ` XX=` field.
 */
export function parseHeader(header: string): HeaderFields {
  const uniprot = /^(?:sp|tr)\|([^|\s]+)\|\S*/.exec(header);
  let accession: string;
  let nameFrom: number;
  if (uniprot) {
    accession = uniprot[1];
    nameFrom = uniprot[0].length;
  } else {
    const token = /^\s*(\S*)/.exec(header)!;
    accession = token[1];
    nameFrom = token[0].length;
  }
  const ox = /(?:^|\s)OX=(\d+)(?:\s|$)/.exec(header);
  // Shards store taxIds as int32: a larger OX= value is malformed, not a taxId to wrap around.
  const taxId = ox ? Number(ox[1]) : NaN;
  const os = header.indexOf(' OS=');
  return {
    accession,
    taxId: taxId <= MAX_TAX_ID ? taxId : undefined,
    reviewed: header.startsWith('sp|'),
    protein: headerText(header.slice(nameFrom, fieldStart(header, nameFrom)).trim()),
    organism: os < 0 ? '' : headerText(header.slice(os + 4, fieldStart(header, os + 4)).trim()),
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Header text read as latin1 (one character a byte) as the text it is: UTF-8 when its bytes are valid UTF-8,
 * else latin1. Always a fresh string, so a kept name never pins the reader's large input chunks in memory.
 */
function headerText(latin1: string): string {
  const bytes = Buffer.from(latin1, 'latin1');
  if (!bytes.some((b) => b >= 0x80)) return bytes.toString('latin1');
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
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
    failure ??= new BuildError(
      gzip && e.code?.startsWith('Z_') ? `${name}: truncated or corrupt gzip (${e.message})` : `${name}: ${e.message}`,
    );
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
    const fields = parseHeader(header);
    const sequence = cleanSequence(body);
    if (!fields.accession) onSkip('noAccession', header);
    else if (sequence === 'noSequence' || sequence === 'invalidCharacters') onSkip(sequence, header);
    else return { ...fields, sequence };
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

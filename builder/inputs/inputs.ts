// The build's input files: FASTA glob patterns resolved to files, the optional taxonomy TSV, and each
// source's size and sha256 as the manifest records it.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import fg from 'fast-glob';
import { MAX_TAX_ID, type SourceEntry } from '../../runtime/model/format.js';
import { BuildError } from '../errors.js';

/** The FASTA files the patterns select, sorted; each pattern must match at least one file. */
export async function resolveInputs(patterns: readonly string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const pattern of patterns) {
    const matches = await fg(pattern, { onlyFiles: true, absolute: true, dot: true });
    if (matches.length === 0) throw new BuildError(`--input ${pattern} matches no file`);
    for (const m of matches) files.add(m);
  }
  return [...files].sort();
}

/** A source file as the manifest lists it: name, size and sha256. */
export async function describeSource(file: string): Promise<SourceEntry> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { file: basename(file), bytes: statSync(file).size, sha256: hash.digest('hex') };
}

/** `accession<TAB>taxId` lines (blank lines and # comments skipped) as a map. */
export async function readTaxonomy(file: string): Promise<Map<string, number>> {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new BuildError(`cannot read --taxonomy ${file}: ${e.code ?? e.message}`);
  });
  const map = new Map<string, number>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const [accession, taxId] = line.split('\t');
    if (!accession || !/^\d+$/.test(taxId ?? '') || Number(taxId) > MAX_TAX_ID)
      throw new BuildError(`--taxonomy ${basename(file)} line ${i + 1}: expected accession<TAB>taxId`);
    map.set(accession, Number(taxId));
  });
  return map;
}

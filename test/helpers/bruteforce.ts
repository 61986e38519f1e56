// A brute-force answer to the API, computed straight from FASTA bytes. Deliberately plain and independent: it
// imports nothing from the builder or runtime/ (own gunzip call and header parsing; residue masses, trypsin rule,
// exact integer masses, half-up rounding and Java-style key text from the reference chemistry in
// reference.ts), so it cannot share a bug with them.
import { gunzipSync } from 'node:zlib';
import {
  decimalToUnits,
  lowerBound,
  REFERENCE_ENZYMES,
  REFERENCE_WATER,
  referenceKey,
  referenceKeyText,
  referencePeptideKey,
  referencePieces,
  referenceUnits,
} from './reference.js';

const WATER_UNITS = Number(decimalToUnits(REFERENCE_WATER));

/** Mass of residues in 1e-10 Da (no water); null when a residue has no defined mass. */
function residueUnits(sequence: string): number | null {
  const units = referenceUnits(sequence);
  return units === null ? null : units - WATER_UNITS;
}

/** Mass (1e-10 Da units, water not included) rounded half-up to a key (count of 0.0001 Da). */
const keyOfUnits = (total: number): number => referenceKey(total + WATER_UNITS);

interface Protein {
  accession: string;
  taxId: number;
}

/** Proteins of a FASTA text as the build keeps them (accession, usable sequence). */
function* records(text: string): Generator<{ accession: string; taxId: number; sequence: string }> {
  const lines = text.split('\n');
  let header: string | null = null;
  let body: string[] = [];
  const emit = () => {
    if (header === null) return null;
    let accession: string;
    const fields = header.split('|');
    if ((fields[0] === 'sp' || fields[0] === 'tr') && fields.length >= 3 && fields[1] !== '' && !/\s/.test(fields[1]))
      accession = fields[1];
    else accession = header.trim().split(/\s+/)[0] ?? '';
    let taxId = -1;
    for (const word of header.split(/\s+/))
      if (/^OX=\d+$/.test(word)) {
        taxId = Number(word.slice(3));
        break;
      }
    let sequence = body.join('').replace(/\s+/g, '').toUpperCase();
    if (sequence.endsWith('*')) sequence = sequence.slice(0, -1);
    if (accession === '' || sequence === '' || !/^[A-Z]+$/.test(sequence)) return null;
    return { accession, taxId, sequence };
  };
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('>')) {
      const r = emit();
      if (r) yield r;
      header = line.slice(1);
      body = [];
    } else if (header !== null) body.push(line);
  }
  const r = emit();
  if (r) yield r;
}

export interface BruteEntry {
  seq: string;
  acc: string[];
}
export interface BruteTaxEntry {
  seq: string;
  accsTax: { acc: string; taxId: number }[];
}
export type BruteGroup = Record<string, BruteEntry[] | BruteTaxEntry[]>;

export interface BruteAnswer {
  totalResult: number;
  page: number;
  pageSize: number;
  result: BruteGroup[];
}

/** A growable Int32 column. */
class Column {
  data = new Int32Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  done(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** Indexes 0..n-1 ordered by `keys` (stable LSD radix sort on non-negative 32-bit keys, 16 bits a pass). */
function orderByKey(keys: Int32Array): Uint32Array {
  let order = Uint32Array.from({ length: keys.length }, (_, i) => i);
  let next = new Uint32Array(keys.length);
  for (const shift of [0, 16]) {
    const counts = new Uint32Array(65_537);
    for (let i = 0; i < keys.length; i++) counts[((keys[i] >>> shift) & 0xffff) + 1]++;
    for (let b = 0; b < 65_536; b++) counts[b + 1] += counts[b];
    for (let i = 0; i < order.length; i++) next[counts[(keys[order[i]] >>> shift) & 0xffff]++] = order[i];
    [order, next] = [next, order];
  }
  return order;
}

/** Every tryptic peptide (≤ 2 missed cleavages, 6..50 residues, no B/X/Z) of the FASTA with its proteins. */
export class BruteForce {
  /** Distinct mass keys, ascending. */
  readonly keys: Int32Array;
  /** Peptides of group g: sequences[groupStarts[g] .. groupStarts[g+1]), ascending within a group. */
  private groupStarts: Int32Array;
  private peptideSequences: string[] = [];
  /** Protein ordinals of peptide p: proteinRefs[refStarts[p] .. refStarts[p+1]), ascending. */
  private refStarts: Int32Array;
  private proteinRefs: Int32Array;
  private proteins: Protein[] = [];
  private taxIdOf = new Map<string, number>();

  constructor(fasta: Uint8Array) {
    const gz = fasta[0] === 0x1f && fasta[1] === 0x8b;
    const text = Buffer.from(gz ? gunzipSync(fasta) : fasta).toString('latin1');
    // 1. Every (peptide, protein) pair, with duplicates: key, sequence, protein ordinal.
    const candidateKeys = new Column();
    const candidateProteins = new Column();
    const candidateSequences: string[] = [];
    for (const record of records(text)) {
      const ordinal = this.proteins.length;
      this.proteins.push({ accession: record.accession, taxId: record.taxId });
      // The first record of an accession gives its taxId.
      if (!this.taxIdOf.has(record.accession)) this.taxIdOf.set(record.accession, record.taxId);
      const pieces = referencePieces(record.sequence, REFERENCE_ENZYMES.trypsin);
      const pieceUnits = pieces.map(residueUnits);
      for (let i = 0; i < pieces.length; i++) {
        let peptide = '';
        let total: number | null = 0;
        for (let j = i; j < pieces.length && j <= i + 2; j++) {
          peptide += pieces[j];
          const u = pieceUnits[j];
          total = total === null || u === null ? null : total + u;
          if (peptide.length > 50) break;
          if (peptide.length < 6 || total === null) continue; // too short, or B, X or Z
          candidateKeys.push(keyOfUnits(total));
          candidateProteins.push(ordinal);
          candidateSequences.push(peptide);
        }
      }
    }
    // 2. Order by key (radix), then by sequence and protein within a key; merge equal sequences.
    const keys = candidateKeys.done();
    const proteinOf = candidateProteins.done();
    const order = orderByKey(keys);
    const groupKeys = new Column();
    const groupStarts = new Column();
    const refStarts = new Column();
    const refs = new Column();
    const bySequence = (a: number, b: number) =>
      candidateSequences[a] < candidateSequences[b]
        ? -1
        : candidateSequences[a] > candidateSequences[b]
          ? 1
          : proteinOf[a] - proteinOf[b];
    for (let run = 0; run < order.length; ) {
      let end = run + 1;
      while (end < order.length && keys[order[end]] === keys[order[run]]) end++;
      const members = Array.from(order.subarray(run, end));
      if (members.length > 1) members.sort(bySequence);
      groupKeys.push(keys[members[0]]);
      groupStarts.push(this.peptideSequences.length);
      let previous: string | undefined;
      for (const m of members) {
        const sequence = candidateSequences[m];
        if (sequence !== previous) {
          this.peptideSequences.push(sequence);
          refStarts.push(refs.length);
          previous = sequence;
          refs.push(proteinOf[m]);
        } else if (refs.data[refs.length - 1] !== proteinOf[m]) refs.push(proteinOf[m]);
      }
      run = end;
    }
    groupStarts.push(this.peptideSequences.length);
    refStarts.push(refs.length);
    this.keys = groupKeys.done();
    this.groupStarts = groupStarts.done();
    this.refStarts = refStarts.done();
    this.proteinRefs = refs.done();
  }

  get peptideCount(): number {
    return this.peptideSequences.length;
  }

  /** All distinct peptide sequences, by ascending key then sequence. */
  sequences(): readonly string[] {
    return this.peptideSequences;
  }

  /** Index of the group with this key, or -1. */
  private groupIndex(key: number): number {
    const g = this.lowerBound(key);
    return this.keys[g] === key ? g : -1;
  }

  /** Sequences of the group with this key, ascending (empty when none). */
  sequencesAt(key: number): readonly string[] {
    const g = this.groupIndex(key);
    return g < 0 ? [] : this.peptideSequences.slice(this.groupStarts[g], this.groupStarts[g + 1]);
  }

  /** Accessions of a peptide, ascending and unique (empty when it is not in the data). */
  accessionsOf(sequence: string): string[] {
    const key = referencePeptideKey(sequence);
    const g = key === null ? -1 : this.groupIndex(key);
    if (g < 0) return [];
    for (let p = this.groupStarts[g]; p < this.groupStarts[g + 1]; p++) {
      if (this.peptideSequences[p] !== sequence) continue;
      const ordinals = this.proteinRefs.subarray(this.refStarts[p], this.refStarts[p + 1]);
      const accessions = new Set(Array.from(ordinals, (o) => this.proteins[o].accession));
      return [...accessions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }
    return [];
  }

  taxIdOfAccession(accession: string): number {
    return this.taxIdOf.get(accession) ?? -1;
  }

  /** First index in keys with keys[i] >= key. */
  private lowerBound(key: number): number {
    return lowerBound(this.keys, key);
  }

  /** Keys with lowKey <= key <= highKey, ascending. */
  keysIn(lowKey: number, highKey: number): number[] {
    if (lowKey > highKey) return [];
    return Array.from(this.keys.subarray(this.lowerBound(lowKey), this.lowerBound(highKey + 1)));
  }

  group(key: number, shape: 'acc' | 'accsTax'): BruteGroup {
    const entries = this.sequencesAt(key).map((seq) => {
      const acc = this.accessionsOf(seq);
      return shape === 'acc'
        ? { seq, acc }
        : { seq, accsTax: acc.map((a) => ({ acc: a, taxId: this.taxIdOfAccession(a) })) };
    });
    return { [referenceKeyText(key)]: entries } as BruteGroup;
  }

  /** The envelope fields (less memory and duration) the API must answer for a key range and page. */
  answer(lowKey: number, highKey: number, page: number, pageSize: number, shape: 'acc' | 'accsTax'): BruteAnswer {
    // keysIn's keys, without copying the whole range for one page of it.
    const keys =
      lowKey > highKey
        ? this.keys.subarray(0, 0)
        : this.keys.subarray(this.lowerBound(lowKey), this.lowerBound(highKey + 1));
    const from = (page - 1) * pageSize;
    return {
      totalResult: keys.length,
      page,
      pageSize,
      result: Array.from(keys.subarray(from, from + pageSize), (k) => this.group(k, shape)),
    };
  }
}

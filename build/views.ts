// The build's views (`--view Carbamidomethyl@C`, FORMAT.md "Views"): the peptides that hold a residue of a fixed
// modification's letters, keyed by their mass with the modification on every such residue. They are spilled into
// partitions of their own (the same plan and record layout, the accession rank in place of the protein ordinal)
// while the dataset's shards are written, then merged into shards and an index of their own.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { peptideMass } from '../runtime/model/chemistry.js';
import { massKey } from '../runtime/model/massKey.js';
import { letterTable, ModificationError, parseModifications, specText } from '../runtime/model/modifications.js';
import { BuildError } from './fasta.js';
import { partitionFile, PartitionPlan, PartitionWriter, type PartitionPeptides } from './partitions.js';

/** Views one build may make. */
export const MAX_VIEWS = 4;

/** A view's modification: its `Name@Letters` text, the residue letters it sits on, its delta in units. */
export interface ViewSpec {
  fixed: string;
  letters: string;
  deltaUnits: number;
}

/** The view of `text` (`Name@Letters`: one modification on residue letters); BuildError when it is not one. */
export function parseView(text: string): ViewSpec {
  let specs;
  try {
    specs = parseModifications(text);
  } catch (e) {
    if (e instanceof ModificationError) throw new BuildError(`--view ${e.message}`);
    throw e;
  }
  const [spec] = specs;
  if (specs.length !== 1 || spec.site.kind !== 'residues') {
    throw new BuildError(`--view takes one modification on residue letters (e.g. Carbamidomethyl@C), got "${text}"`);
  }
  // A precursor search bounds a hypothesis's masses from below by its unmodified residues: a view's keys may lie
  // above its peptides' unmodified masses, not below.
  if (spec.modification.deltaUnits <= 0) throw new BuildError(`--view ${specText(spec)}: the modification must add mass (its delta is ${spec.modification.delta} Da)`);
  // A custom modification keeps its mass in the name, so that a reader can weigh it: `Name:+12.34@C`.
  const { modification } = spec;
  const fixed = modification.accession === undefined ? `${modification.name}:+${modification.delta}@${spec.site.letters}` : specText(spec);
  return { fixed, letters: spec.site.letters, deltaUnits: modification.deltaUnits };
}

/** The views of a build's `--view` values, in the order given; BuildError for a bad or repeated one. */
export function parseViews(texts: readonly string[]): ViewSpec[] {
  if (texts.length > MAX_VIEWS) throw new BuildError(`at most ${MAX_VIEWS} --view options, got ${texts.length}`);
  const views = texts.map(parseView);
  const twice = views.find((v, i) => views.findIndex((w) => w.fixed === v.fixed) !== i);
  if (twice) throw new BuildError(`--view ${twice.fixed} is given twice`);
  return views;
}

/**
 * The view key of a stored peptide (defined residues only), or undefined when it holds no residue of the view's
 * letters: the mass key of its mass with water plus the delta once per such residue, in exact integer units.
 */
export function viewKey(sequence: string, view: ViewSpec): number | undefined {
  const member = letterTable(view.letters);
  let sites = 0;
  for (let i = 0; i < sequence.length; i++) sites += member[sequence.charCodeAt(i) & 127];
  if (sites === 0) return undefined;
  const mass = peptideMass(sequence);
  if ('error' in mass) throw new Error(`internal error: stored peptide ${sequence} has a residue without mass`);
  return massKey(mass.units + sites * view.deltaUnits);
}

/** One view's peptides on their way to its shards: spilled from the dataset's partitions into partitions of its own. */
export class ViewSpill {
  private writer: PartitionWriter;
  private name: string;

  constructor(
    readonly view: ViewSpec,
    private dir: string,
    plan: PartitionPlan,
    ordinal: number,
  ) {
    this.name = `view${ordinal}`;
    mkdirSync(dir, { recursive: true });
    this.writer = new PartitionWriter(dir, this.name, plan);
  }

  /** The view's peptides of one merged partition: a record per (peptide, accession rank). */
  add(part: PartitionPeptides): void {
    for (let p = 0; p < part.keys.length; p++) {
      const sequence = part.sequences.slice(p === 0 ? 0 : part.sequenceEnds[p - 1], part.sequenceEnds[p]);
      const key = viewKey(sequence, this.view);
      if (key === undefined) continue;
      for (let r = p === 0 ? 0 : part.rankEnds[p - 1]; r < part.rankEnds[p]; r++) this.writer.add(key, part.ranks[r], sequence);
    }
  }

  /** Writes what is buffered; the view's partition files, by partition. */
  finish(): Map<number, string[]> {
    this.writer.flush();
    return new Map([...this.writer.partitions].map((p) => [p, [partitionFile(this.dir, this.name, p)]]));
  }
}

/** The folder a build spills its views into. */
export const viewSpillDir = (tmp: string) => join(tmp, 'view-partitions');

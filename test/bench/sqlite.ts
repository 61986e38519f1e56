// The side-by-side baseline: the same peptides in SQLite (clustered B-tree on mass key), answering
// count + first page of mass groups and building the same JSON body as our API.
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Dataset } from '../../runtime/core/storage/dataset.js';
import { sequenceOf } from '../../runtime/model/format.js';
import { formatMassKey, parseMass } from '../../runtime/model/massKey.js';
import { FileSource } from '../../runtime/entries/node/fileSource.js';
import { nodeCodecs } from '../../runtime/entries/node/platform.js';
import type { Manifest } from '../../runtime/model/format.js';
import { summarize, type Summary } from './measure.js';

type Db = import('better-sqlite3').Database;

/** better-sqlite3 is optional (a native build); undefined when it is not installed. */
export function loadSqlite(): typeof import('better-sqlite3') | undefined {
  try {
    return createRequire(import.meta.url)('better-sqlite3');
  } catch {
    return undefined;
  }
}

/**
 * What the peptides of a dataset depend on: its inputs and digest parameters, not its format or shard size, so
 * a database imported from one build serves every build of the same inputs and parameters.
 */
export function peptideStamp(manifest: Manifest): string {
  const { enzyme, missedCleavages, minLength, maxLength } = manifest.parameters;
  const inputs = JSON.stringify({
    enzyme,
    missedCleavages,
    minLength,
    maxLength,
    sources: manifest.sources.map((s) => s.sha256),
  });
  return `peptides-${createHash('sha256').update(inputs).digest('hex').slice(0, 16)}`;
}

/** Creates (or reuses) `file` holding every peptide of the dataset in `dir`. */
export async function buildSqlite(dir: string, file: string): Promise<Db> {
  const Sqlite = loadSqlite();
  if (!Sqlite) throw new Error('better-sqlite3 is not installed');
  const dataset = await Dataset.open(new FileSource(dir), { cacheBytes: 64 * 2 ** 20, ...nodeCodecs });
  const stamp = peptideStamp(dataset.manifest);
  if (existsSync(file)) {
    const db = new Sqlite(file);
    const row = db.prepare('SELECT value FROM meta WHERE key = ?').get('version') as { value: string } | undefined;
    if (row?.value === stamp) return db;
    db.close();
    rmSync(file);
  }
  const db = new Sqlite(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
    CREATE TABLE mass_group (mass_key INTEGER PRIMARY KEY, peptides INTEGER NOT NULL);
    CREATE TABLE peptide (mass_key INTEGER NOT NULL, seq TEXT NOT NULL, acc TEXT NOT NULL, PRIMARY KEY (mass_key, seq)) WITHOUT ROWID;`);
  const addGroup = db.prepare('INSERT INTO mass_group VALUES (?, ?)');
  const addPeptide = db.prepare('INSERT INTO peptide VALUES (?, ?, ?)');
  let ordinal = 0;
  while (ordinal < dataset.index.groupCount) {
    const located = await dataset.index.shardOfGroup(ordinal);
    const shard = await dataset.shard(located.entry);
    const set = await dataset.accessionSet((add) => shard.accessionRefs.forEach(add));
    db.transaction(() => {
      for (let g = 0; g < shard.massKeys.length; g++) {
        const from = g === 0 ? 0 : shard.groupEnds[g - 1];
        addGroup.run(shard.massKeys[g], shard.groupEnds[g] - from);
        for (let p = from; p < shard.groupEnds[g]; p++) {
          const accessions = Array.from(set.listed(shard, p), (r) => set.accession(r));
          addPeptide.run(shard.massKeys[g], sequenceOf(shard, p), accessions.join(','));
        }
      }
    })();
    ordinal = located.groupsBefore + located.entry.massGroups;
  }
  db.prepare('INSERT INTO meta VALUES (?, ?)').run('version', stamp);
  return db;
}

/** Times count + first page (up to `pageSize` groups, body built) for each window, like search.php. */
export function benchSqlite(
  db: Db,
  windows: [string, string][],
  pageSize = 1000,
): { latency: Summary; hitsMean: number } {
  const count = db.prepare('SELECT COUNT(*) AS n FROM mass_group WHERE mass_key BETWEEN ? AND ?');
  const nth = db
    .prepare('SELECT mass_key FROM mass_group WHERE mass_key BETWEEN ? AND ? ORDER BY mass_key LIMIT 1 OFFSET ?')
    .pluck();
  const rows = db.prepare(
    'SELECT mass_key, seq, acc FROM peptide WHERE mass_key BETWEEN ? AND ? ORDER BY mass_key, seq',
  );
  const ms: number[] = [];
  let hits = 0;
  for (const [m1, m2] of windows) {
    const t = performance.now();
    const lo = parseMass(m1)!.ceilKey;
    const hi = parseMass(m2)!.floorKey;
    const total = (count.get(lo, hi) as { n: number }).n;
    const last = (nth.get(lo, hi, pageSize - 1) as number | undefined) ?? hi;
    const result: Record<string, { seq: string; acc: string[] }[]>[] = [];
    let current: { seq: string; acc: string[] }[] = [];
    let currentKey = -1;
    for (const row of rows.iterate(lo, last) as Iterable<{ mass_key: number; seq: string; acc: string }>) {
      if (row.mass_key !== currentKey) {
        currentKey = row.mass_key;
        current = [];
        result.push({ [formatMassKey(currentKey)]: current });
      }
      current.push({ seq: row.seq, acc: row.acc.split(',') });
    }
    JSON.stringify({ totalResult: total, memory: '0 MB', duration: '00:00:00.000', page: 1, pageSize, result });
    ms.push(performance.now() - t);
    hits += total;
  }
  return { latency: summarize(ms), hitsMean: hits / windows.length };
}

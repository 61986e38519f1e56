// The fixed query set of the golden replay: requests over the three .php endpoints (ranges of every width, peptides
// from the bundled sample, every paging and error edge), generated from a fixed PRNG seed.
import { prng } from '../helpers/prng.js';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Stands for the dataset's own ETag in ifNoneMatch (known only once the dataset is built). */
export const ETAG = '$ETAG';

export interface GoldenRequest {
  method: string;
  /** Path and query string. */
  path: string;
  ifNoneMatch?: string;
}

const random = prng;

/** Protein sequences of a FASTA file (gzip or plain). */
function proteins(fasta: string): string[] {
  const bytes = readFileSync(fasta);
  const text = (fasta.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
  return text
    .split('\n>')
    .map((record) => record.split('\n').slice(1).join('').trim())
    .filter((s) => s.length > 0);
}

/** A tryptic piece of a protein (cuts after K/R not before P, 0-2 missed), 6-30 long when one exists. */
function trypticPiece(protein: string, rand: () => number): string {
  const sites = [0];
  for (let i = 0; i < protein.length - 1; i++)
    if ('KR'.includes(protein[i]) && protein[i + 1] !== 'P') sites.push(i + 1);
  sites.push(protein.length);
  for (let tries = 0; tries < 20; tries++) {
    const a = Math.floor(rand() * (sites.length - 1));
    const b = Math.min(sites.length - 1, a + 1 + Math.floor(rand() * 3));
    const piece = protein.slice(sites[a], sites[b]);
    if (piece.length >= 6 && piece.length <= 30) return piece;
  }
  return protein.slice(0, 12);
}

export function goldenRequests(fasta: string, count = 2400): GoldenRequest[] {
  const rand = random(20261123);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const all = proteins(fasta);
  const peptide = () => trypticPiece(pick(all), rand);
  const massText = (mass: number) => {
    const style = rand();
    if (style < 0.6) return mass.toFixed(Math.floor(rand() * 7));
    if (style < 0.7) return mass.toExponential(Math.floor(rand() * 8));
    if (style < 0.8) return ` ${mass.toFixed(4)} `;
    return String(Math.round(mass));
  };
  const paging = (defaultLike: boolean) => {
    const parts: string[] = [];
    if (!defaultLike || rand() < 0.5) {
      if (rand() < 0.5) parts.push(`page=${pick([1, 1, 2, 3, 5, 40, 100000])}`);
      if (rand() < 0.6) parts.push(`pageSize=${pick([1, 2, 10, 25, 100, 1000])}`);
    }
    return parts;
  };
  const range = (path: string) => {
    const centre = 350 + rand() * rand() * 5500;
    const width = pick([0, 0.0001, 0.0005, 0.001, 0.01, 0.02, 0.1, 0.2, 1, 5, 20, 300]);
    const q = [`mass1=${massText(centre - width / 2)}`, `mass2=${massText(centre + width / 2)}`, ...paging(false)];
    return `${path}?${q.join('&')}`;
  };
  const seqText = (seq: string) => {
    const style = rand();
    if (style < 0.15) return seq.toLowerCase();
    if (style < 0.2) return `%20${seq}%20`;
    if (style < 0.25) return seq.replace(/I/g, 'L');
    return seq;
  };
  const errors = [
    '/search.php',
    '/search.php?mass1=1000',
    '/search.php?mass2=1000',
    '/search.php?mass1=&mass2=1001',
    '/search.php?mass1=abc&mass2=1',
    '/search.php?mass1=1000&mass1=1001&mass2=1002',
    '/search.php?mass1=-1&mass2=10',
    '/search.php?mass1=1002&mass2=1001',
    '/search.php?mass1=NaN&mass2=1001',
    '/search.php?mass1=Infinity&mass2=1e400',
    '/search.php?mass1=0x10&mass2=1001',
    '/search.php?mass1=1000&mass2=1001&page=0',
    '/search.php?mass1=1000&mass2=1001&page=abc',
    '/search.php?mass1=1000&mass2=1001&pageSize=1001',
    '/search.php?mass1=1000&mass2=1001&pageSize=0',
    '/search.php?mass1=1000&mass2=1001&page=',
    '/search.php?mass1=1000&mass2=1001&page=1.5',
    '/search.php?mass1=1000&mass2=1001&page=99999999999',
    '/search.php?peptide=PEPBIDE',
    '/search.php?peptide=PEP1IDE',
    '/search.php?peptide=%20&mass1=1000&mass2=1000.3',
    '/search.php?peptide=&mass1=1000&mass2=1000.3',
    '/search-peptide.php',
    '/search-peptide.php?peptide=',
    '/search-peptide.php?peptide=XXX',
    '/search-peptide.php?peptide=PEPTIDE&page=x',
    '/search-peptide.php?peptide=PEPTIDE&pageSize=1.0',
    '/search-peptide.php?peptide=PEPTIDE&pageSize=2000',
    '/search-peptide.php?peptide=PEPTIDE&peptide=K',
    '/search-peptide.php?peptide=PEPT%C4%B1DE',
    '/search-peptide.php?peptide=%F0%9F%98%80',
    `/search-peptide.php?peptide=${'A'.repeat(1001)}`,
    `/search-peptide.php?peptide=${'G'.repeat(1000)}`,
    '/search-taxonomy.php',
    '/search-taxonomy.php?mass1=1&mass2=x',
    '/search-taxonomy.php?mass1=5&mass2=4',
    '/search-taxonomy.php?peptide=PEPTIDE',
    '/search-taxonomy.php?mass1=1000&mass2=1001&page=-1',
    '/search-taxonomy.php?mass1=1e3&mass2=1.0001e3',
    '/',
    '/search',
    '/search.PHP?mass1=1&mass2=2',
    '/shards/manifest.json',
    '/openapi',
    `/search.php?mass1=1000&mass2=1001&x=${'y'.repeat(4100)}`,
    '/search.php?mass1=1000&mass2=1001&mass2=1002',
    '/search.php?mass1=%2B1000&mass2=1000.5',
    '/search.php?mass1=.5&mass2=500.',
    '/search.php?mass1=.&mass2=1',
    // Which error wins when several parameters are wrong (the order of checks is part of the contract).
    '/search.php?mass2=1&mass2=2',
    '/search.php?mass1=x&mass2=1&mass2=2',
    '/search.php?mass1=5&mass2=4&page=0',
    '/search.php?mass1=x&page=0',
    '/search.php?mass1=-1&mass2=x',
    '/search.php?peptide=PEPBIDE&page=0',
    '/search.php?peptide=PEPTIDE&page=0&mass1=x',
    '/search.php?page=0&pageSize=0&mass1=1&mass2=2',
    '/search.php?peptide=A&peptide=B&mass1=x',
    '/search.php?pageSize=x&page=y&mass1=1&mass2=2',
    '/search.php?page=1&page=2&mass1=1&mass2=2',
    '/search-peptide.php?peptide=A&peptide=B&page=x',
    '/search-peptide.php?page=0&peptide=B',
    '/search-peptide.php?pageSize=x&peptide=',
    '/search-peptide.php?peptide=%20%20',
    '/search-peptide.php?page=2&page=3&peptide=B',
    '/search-peptide.php?pageSize=0&page=x',
    '/search-taxonomy.php?mass1=5&mass2=4&pageSize=x',
    '/search-taxonomy.php?mass1=1&mass2=2&pageSize=1.5',
    '/search-taxonomy.php?mass1=1&mass2=2&page=2147483648',
    '/search-taxonomy.php?mass1=1&mass2=2&page=2147483647',
    '/search.php?mass1=1000&mass2=1001&PAGE=2&pagesize=3',
    '/search.php?mass1=1e-5&mass2=1E2',
    '/search.php?mass1=00001000.00&mass2=0001000.50000',
  ];
  const requests: GoldenRequest[] = errors.map((path) => ({ method: 'GET', path }));
  for (const path of ['/search.php?mass1=1000&mass2=1001', '/search-peptide.php?peptide=PEPTIDE', '/nowhere']) {
    for (const method of ['HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']) requests.push({ method, path });
  }
  requests.push({ method: 'GET', path: '/search.php?mass1=1000&mass2=1001', ifNoneMatch: '*' });
  for (const path of [
    '/search.php?mass1=1000&mass2=1001',
    '/search-peptide.php?peptide=PEPTIDE',
    '/search-taxonomy.php?mass1=1&mass2=x',
  ]) {
    requests.push({ method: 'GET', path, ifNoneMatch: ETAG }, { method: 'HEAD', path, ifNoneMatch: ETAG });
  }
  while (requests.length < count) {
    const kind = rand();
    if (kind < 0.3) requests.push({ method: 'GET', path: range('/search.php') });
    else if (kind < 0.45)
      requests.push({
        method: 'GET',
        path: `/search.php?${[`peptide=${seqText(peptide())}`, ...paging(true)].join('&')}`,
      });
    else if (kind < 0.7)
      requests.push({
        method: 'GET',
        path: `/search-peptide.php?${[`peptide=${seqText(peptide())}`, ...paging(true)].join('&')}`,
      });
    else if (kind < 0.95) requests.push({ method: 'GET', path: range('/search-taxonomy.php') });
    else
      requests.push({
        method: rand() < 0.5 ? 'HEAD' : 'GET',
        path: range(pick(['/search.php', '/search-taxonomy.php'])),
      });
  }
  return requests;
}

// Differential fuzzing of the API handler against the brute-force reference over decoded shards
// (shardReference.ts): a fast-check arbitrary of queries shaped by the dataset (masses on, between and around
// real mass keys, narrow to very wide ranges, deep pages, real and mutated peptides), and a comparison of
// full answers.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { Handler } from '../../runtime/api/handler.js';
import { stable } from './api.js';
import {
  queryPath,
  referenceAnswer,
  type EndpointPath,
  type RefAnswer,
  type RefQuery,
  type ReferenceData,
} from './shardReference.js';

/** The value N / 10^S as decimal text, written one of several ways Java's Double.parseDouble accepts. */
function decimalText(n: bigint, scale: number, style: number): string {
  const digits = n.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  const plain = fraction ? `${whole}.${fraction}` : whole;
  switch (style) {
    case 0:
      return plain;
    case 1:
      return `${plain}${fraction ? '' : '.'}000`; // trailing zeros
    case 2: {
      // scientific: d.ddd e(exp)
      const significant = n.toString();
      const exponent = significant.length - 1 - scale;
      return `${significant[0]}.${significant.slice(1) || '0'}e${exponent}`;
    }
    case 3:
      return ` +${plain} `; // sign and surrounding spaces
    default:
      return `${whole}.${fraction}`.replace(/\.$/, ''); // "1234." forms avoided; same as plain
  }
}

/** Mass text near key `key` (0.0001 Da): exactly on it, or off by a fraction of a key unit, below or above. */
const massNear = (key: number) =>
  fc
    .record({
      extra: fc.integer({ min: 0, max: 3 }),
      offset: fc.integer({ min: -999, max: 999 }),
      style: fc.integer({ min: 0, max: 3 }),
      exact: fc.boolean(),
    })
    .map(({ extra, offset, style, exact }) => {
      const scale = 4 + extra;
      const bound = 10 ** extra - 1;
      const off = exact || extra === 0 ? 0 : Math.max(-bound, Math.min(bound, offset));
      const n = BigInt(key) * 10n ** BigInt(extra) + BigInt(off);
      return decimalText(n < 0n ? 0n : n, scale, style);
    });

const pageArb = fc.oneof(
  { weight: 5, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }).map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 5000 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('2147483647', '1000000', '0') },
);
const pageSizeArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }).map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 1000 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('1000', '1', '0', '1001') },
);

/** A peptide from the dataset, possibly mutated (case, I/L/J swaps, spaces), or random letters, or with B/X/Z. */
function peptideArb(ref: ReferenceData) {
  const real = fc.integer({ min: 0, max: ref.sequences.length - 1 }).map((p) => ref.sequences[p]);
  const mutated = fc
    .record({
      seq: real,
      lower: fc.array(fc.nat(), { maxLength: 5 }),
      swaps: fc.array(fc.nat(), { maxLength: 3 }),
      pad: fc.constantFrom('', ' ', '\t', ' \n '),
    })
    .map(({ seq, lower, swaps, pad }) => {
      const chars = [...seq];
      for (const i of lower) chars[i % chars.length] = chars[i % chars.length].toLowerCase();
      for (const i of swaps) {
        const c = chars[i % chars.length];
        if (/[ILJ]/.test(c)) chars[i % chars.length] = 'ILJ'['ILJ'.indexOf(c) === 2 ? 0 : 'ILJ'.indexOf(c) + 1];
      }
      return `${pad}${chars.join('')}${pad}`;
    });
  const random = fc.string({ unit: fc.constantFrom(...'ACDEFGHIKLMNPQRSTVWY'), minLength: 1, maxLength: 40 });
  const noMass = fc
    .tuple(real, fc.nat(), fc.constantFrom('B', 'X', 'Z', 'b', 'x', 'z'))
    .map(([seq, i, c]) => seq.slice(0, i % seq.length) + c + seq.slice(i % seq.length));
  return fc.oneof(
    { weight: 5, arbitrary: real },
    { weight: 3, arbitrary: mutated },
    { weight: 2, arbitrary: random },
    { weight: 1, arbitrary: noMass },
  );
}

/** A mass range [mass1, mass2] as text: narrow, spanning groups, wide, outside the data, or inverted. */
function rangeArb(ref: ReferenceData) {
  const groups = ref.keys.length;
  const maxKey = ref.keys[groups - 1];
  const group = fc.integer({ min: 0, max: groups - 1 });
  const narrow = fc
    .tuple(group, fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: 30 }))
    .chain(([g, shift, span]) => {
      const low = Math.max(0, ref.keys[g] + shift);
      return fc.tuple(massNear(low), massNear(low + span));
    });
  const spanning = fc
    .tuple(group, fc.integer({ min: 0, max: 3000 }))
    .chain(([g, n]) => fc.tuple(massNear(ref.keys[g]), massNear(ref.keys[Math.min(groups - 1, g + n)])));
  const wide = fc
    .tuple(fc.integer({ min: 0, max: maxKey + 20_000 }), fc.integer({ min: 0, max: maxKey }))
    .chain(([a, span]) => fc.tuple(massNear(a), massNear(a + span)));
  const outside = fc.oneof(
    fc.tuple(fc.constant('0'), massNear(Math.max(0, ref.keys[0] - 1))),
    fc.tuple(massNear(maxKey + 1), fc.constantFrom('100000', '1e9', '99999999999999999999')),
    fc.tuple(fc.constant('0'), fc.constant('1e30')),
  );
  const inverted = fc
    .tuple(group, fc.integer({ min: 1, max: 5000 }))
    .chain(([g, d]) => fc.tuple(massNear(ref.keys[g] + d), massNear(ref.keys[g])));
  // Ends on or next to the first/last key of a shard or of an index page: where the index logic decides.
  const shardEnds = ref.shardEntries.flatMap((s) => [s.firstKey, s.lastKey]);
  const pageEnds = ref.indexPages.flatMap((p) => [p.firstKey, p.lastKey]);
  const boundary = fc.oneof(
    fc.constantFrom(...shardEnds),
    fc.constantFrom(...(pageEnds.length ? pageEnds : shardEnds)),
  );
  const nearBoundary = fc.tuple(boundary, fc.integer({ min: -1, max: 1 })).map(([k, d]) => Math.max(0, k + d));
  const atBoundary = fc.oneof(
    fc
      .tuple(nearBoundary, fc.integer({ min: 0, max: 2000 }))
      .chain(([k, span]) => fc.tuple(massNear(k), massNear(k + span))),
    fc
      .tuple(nearBoundary, fc.integer({ min: 0, max: 2000 }))
      .chain(([k, span]) => fc.tuple(massNear(Math.max(0, k - span)), massNear(k))),
    fc
      .tuple(nearBoundary, nearBoundary)
      .chain(([a, b]) => fc.tuple(massNear(Math.min(a, b)), massNear(Math.max(a, b)))),
  );
  return fc.oneof(
    { weight: 4, arbitrary: narrow },
    { weight: 3, arbitrary: spanning },
    { weight: 3, arbitrary: atBoundary },
    { weight: 2, arbitrary: wide },
    { weight: 1, arbitrary: outside },
    { weight: 1, arbitrary: inverted },
  );
}

/** Queries for all three endpoints, in the reference's domain. */
export function queryArbitrary(ref: ReferenceData): fc.Arbitrary<RefQuery> {
  const range = rangeArb(ref);
  const peptide = peptideArb(ref);
  const paging = fc.record({ page: pageArb, pageSize: pageSizeArb });
  const byMass = (endpoint: EndpointPath) =>
    fc.tuple(range, paging, fc.option(peptide, { freq: 5 })).map(([[mass1, mass2], p, pep]) => ({
      endpoint,
      mass1,
      mass2,
      // On search-taxonomy.php a peptide parameter is not read; on search.php a blank one is ignored.
      ...(pep !== null && endpoint === '/search-taxonomy.php' ? { peptide: pep } : {}),
      ...(pep !== null && endpoint === '/search.php' ? { peptide: ' ' } : {}),
      ...clean(p),
    }));
  const byPeptide = (endpoint: EndpointPath) =>
    fc.tuple(peptide, paging).map(([pep, p]): RefQuery => ({ endpoint, peptide: pep, ...clean(p) }));
  return fc.oneof(
    { weight: 3, arbitrary: byMass('/search.php') },
    { weight: 1, arbitrary: byPeptide('/search.php') },
    { weight: 2, arbitrary: byPeptide('/search-peptide.php') },
    { weight: 3, arbitrary: byMass('/search-taxonomy.php') },
  );
}

function clean(p: { page: string | undefined; pageSize: string | undefined }) {
  return {
    ...(p.page !== undefined ? { page: p.page } : {}),
    ...(p.pageSize !== undefined ? { pageSize: p.pageSize } : {}),
  };
}

/**
 * null when the handler's answer equals the reference's (status, and the full body minus memory/duration);
 * `expected` is the reference's answer to `q` when the caller has it already.
 */
export async function difference(
  handler: Handler,
  ref: ReferenceData,
  q: RefQuery,
  expected: RefAnswer = referenceAnswer(ref, q),
): Promise<string | null> {
  const path = queryPath(q);
  const response = await handler(new Request(`http://localhost${path}`));
  const text = await response.text();
  if (response.status !== expected.status)
    return `${path}: status ${response.status} (${text.slice(0, 200)}), expected ${expected.status}`;
  const body = JSON.parse(text) as Record<string, unknown>;
  if (expected.status !== 200)
    return typeof body.error === 'string' ? null : `${path}: error body without error text: ${text.slice(0, 200)}`;
  if (typeof body.memory !== 'string' || typeof body.duration !== 'string') return `${path}: memory/duration missing`;
  const got = stable(body);
  if (isDeepStrictEqual(got, expected.body)) return null;
  return `${path}: body differs\n  got      ${JSON.stringify(got).slice(0, 400)}\n  expected ${JSON.stringify(expected.body).slice(0, 400)}`;
}

// Plain edit distance (insert, delete, substitute; no transpositions), case ignored: the tests' own reference for
// "a small edit distance", written apart from runtime/model/editDistance.ts.
export function levenshtein(a: string, b: string): number {
  const [s, t] = [a.toLowerCase(), b.toLowerCase()];
  let row = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const next = [i];
    for (let j = 1; j <= t.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    row = next;
  }
  return row[t.length];
}

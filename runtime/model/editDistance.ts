// How far apart two names are, for suggesting the name someone meant: the edit distance with adjacent
// transpositions (optimal string alignment), case ignored, and how far a name of a given length may be off.

/** Edit distance between two names, case ignored, an adjacent transposition counting as one edit. */
export function editDistance(a: string, b: string): number {
  const [s, t] = [a.toLowerCase(), b.toLowerCase()];
  const d = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++)
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[s.length][t.length];
}

/** Edits a known name of this length may be off by and still be taken for a typo: short names are easily another's. */
export const typoLimit = (name: string): number => (name.length <= 3 ? 0 : name.length <= 5 ? 1 : 2);

/** The known name `name` is a typo of (the nearest within its limit), or undefined. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(name, k);
    if (distance <= typoLimit(k) && (!best || distance < best.distance)) best = { name: k, distance };
  }
  return best?.name;
}

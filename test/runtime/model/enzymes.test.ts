// Tests runtime/model/enzymes.ts against OpenMS's enzyme table (CHEMISTRY/Enzymes.xml of Debian's openms-common):
// each enzyme cuts between two standard residues exactly where its OpenMS counterpart's regular expression, evaluated,
// matches, and missedCleavages() counts that expression's matches inside a peptide; and the test reference's rules
// (test/helpers/reference.ts) are psi-ms.obo's, as the same package ships it. Skipped where openms-common is missing.
import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleavageSites, cutsAfter, ENZYMES, missedCleavages } from '../../../runtime/model/enzymes.js';
import { REFERENCE_ENZYMES } from '../../helpers/reference.js';
import { OPENMS_NAMES } from '../../helpers/openmsEnzymes.js';

const ENZYMES_XML = '/usr/share/openms/CHEMISTRY/Enzymes.xml';
const PSI_MS_OBO = '/usr/share/openms/CV/psi-ms.obo';

// The comparison covers the 20 standard residues only. OpenMS puts the ambiguity codes into its classes so that a
// residue that may be a cutting one is cut at: X (any residue) in every enzyme's, B (D or N) and Z (E or Q) in
// Asp-N's and V8's, J (I or L) in Chymotrypsin's and PepsinA's. Our rule differs on purpose: ambiguity codes never
// cut (B, X and Z have no mass, so peptides holding them are left out of a dataset anyway; test/helpers/reference.ts).
const STANDARD = 'ACDEFGHIKLMNPQRSTVWY';

/** Each OpenMS enzyme's RegEx and PSIID, by its Name, read from Enzymes.xml. */
function openmsEnzymes(): Map<string, { regex: string; psiId: string }> {
  const xml = readFileSync(ENZYMES_XML, 'latin1'); // the file declares ISO-8859-1
  const unescapeXml = (text: string) => text.replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
  const item = (node: string, name: string) => new RegExp(`<ITEM name="${name}" value="([^"]*)"`).exec(node)?.[1] ?? '';
  const enzymes = new Map<string, { regex: string; psiId: string }>();
  for (const node of xml.split(/<NODE name="(?=[^"]*">\s*<ITEM name="Name")/).slice(1)) {
    enzymes.set(unescapeXml(item(node, 'Name')), {
      regex: unescapeXml(item(node, 'RegEx')),
      psiId: item(node, 'PSIID'),
    });
  }
  return enzymes;
}

/** Positions strictly inside `sequence` (1..length-1) where the regular expression matches: where it cuts. */
function regexCuts(regex: string, sequence: string): number[] {
  return [...sequence.matchAll(new RegExp(regex, 'g'))].map((m) => m.index).filter((i) => i > 0 && i < sequence.length);
}

describe('the enzyme table against OpenMS (CHEMISTRY/Enzymes.xml)', () => {
  const present = existsSync(ENZYMES_XML);

  it('names an OpenMS counterpart for every enzyme', () => {
    expect(Object.keys(OPENMS_NAMES).sort()).toEqual(Object.keys(ENZYMES).sort());
  });

  it.skipIf(!present)('reads the OpenMS table: 30 enzymes and more, Trypsin as PSI-MS defines it', () => {
    const openms = openmsEnzymes();
    expect(openms.size).toBeGreaterThanOrEqual(30);
    expect(openms.get('Trypsin')).toEqual({ regex: '(?<=[KRX])(?!P)', psiId: 'MS:1001251' });
    for (const name of Object.values(OPENMS_NAMES)) expect(openms.get(name)?.regex, name).toMatch(/\(\?<?[=!]/);
  });

  it.skipIf(!present)('each enzyme cuts between two standard residues exactly where its OpenMS RegEx matches', () => {
    const openms = openmsEnzymes();
    for (const [name, openmsName] of Object.entries(OPENMS_NAMES)) {
      const { regex } = openms.get(openmsName)!;
      const differ: string[] = [];
      let cuts = 0;
      for (const a of STANDARD) {
        for (const b of STANDARD) {
          const theirs = regexCuts(regex, a + b).includes(1);
          if (theirs) cuts++;
          if (cutsAfter(ENZYMES[name], a + b, 0) !== theirs) differ.push(`${a}|${b}: OpenMS ${theirs ? '' : 'no '}cut`);
        }
      }
      expect(differ, `${name} against OpenMS ${openmsName} ${regex}`).toEqual([]);
      expect(cuts, name).toBeGreaterThan(0);
    }
  });

  it.skipIf(!present)(
    'cleavageSites() and missedCleavages() count the OpenMS RegEx matches on random sequences',
    () => {
      const openms = openmsEnzymes();
      fc.assert(
        fc.property(
          fc.constantFrom(...Object.keys(OPENMS_NAMES)),
          fc.string({ unit: fc.constantFrom(...STANDARD, ...'KRDEFLWYMP'), minLength: 0, maxLength: 40 }),
          (name, peptide) => {
            const theirs = regexCuts(openms.get(OPENMS_NAMES[name])!.regex, peptide);
            expect(missedCleavages(peptide, ENZYMES[name])).toBe(theirs.length);
            expect(cleavageSites(peptide, ENZYMES[name])).toEqual(
              peptide.length === 0 ? [0] : [0, ...theirs, peptide.length],
            );
          },
        ),
        { numRuns: 2000 },
      );
    },
  );

  it.skipIf(!present)(
    "the test reference's rules name OpenMS's PSI-MS terms and cut alike on standard residues",
    () => {
      const openms = openmsEnzymes();
      for (const [name, openmsName] of Object.entries(OPENMS_NAMES)) {
        const { regex, psiId } = openms.get(openmsName)!;
        const { term, regex: rule } = REFERENCE_ENZYMES[name];
        expect(term, name).toBe(psiId ? `${psiId} ${openmsName}` : `OpenMS ${openmsName}`);
        for (const a of STANDARD)
          for (const b of STANDARD) expect(regexCuts(rule, a + b), `${name} ${a}${b}`).toEqual(regexCuts(regex, a + b));
      }
    },
  );
});

describe.skipIf(!existsSync(PSI_MS_OBO))("the test reference's rules against psi-ms.obo", () => {
  it("each rule with a PSI-MS term is that term's has_regexp, verbatim", () => {
    const obo = readFileSync(PSI_MS_OBO, 'utf8');
    let checked = 0;
    for (const { term, regex } of Object.values(REFERENCE_ENZYMES)) {
      const id = /^MS:\d{7}/.exec(term)?.[0];
      if (!id) continue;
      const stanza = obo.split('\n\n').find((s) => s.startsWith(`[Term]\nid: ${id}\n`));
      expect(stanza, id).toBeDefined();
      expect(/^name: (.*)$/m.exec(stanza!)?.[1], id).toBe(term.slice(id.length + 1));
      expect(/^relationship: has_regexp MS:\d{7} ! (.*)$/m.exec(stanza!)?.[1], id).toBe(regex);
      checked++;
    }
    expect(checked).toBe(11);
  });
});

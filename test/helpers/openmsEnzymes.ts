// Our enzymes by their names in OpenMS's CHEMISTRY/Enzymes.xml (which Digestor's -enzyme takes): V8-DE and V8-E are
// Glu-C in phosphate and in bicarbonate buffer.
export const OPENMS_NAMES: Readonly<Record<string, string>> = {
  trypsin: 'Trypsin',
  'trypsin/p': 'Trypsin/P',
  'arg-c': 'Arg-C',
  'arg-c/p': 'Arg-C/P',
  'asp-n': 'Asp-N',
  chymotrypsin: 'Chymotrypsin',
  'chymotrypsin/p': 'Chymotrypsin/P',
  cnbr: 'CNBr',
  'glu-c': 'V8-DE',
  'glu-c/e': 'V8-E',
  'lys-c': 'Lys-C',
  'lys-c/p': 'Lys-C/P',
  'lys-n': 'Lys-N',
  pepsina: 'PepsinA',
};

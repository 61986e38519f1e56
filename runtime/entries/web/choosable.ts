// Table rows a person chooses one of, by mouse or keyboard, to see its detail (Identify's PSMs, Fingerprint's
// proteins).

/** Rows to choose by mouse or keyboard (arrows, Home, End, Enter): `choose` shows the row's detail. */
export function choosable(body: HTMLTableSectionElement, choose: (row: HTMLTableRowElement) => void): void {
  const rows = () => [...body.rows];
  body.addEventListener('click', (e) => {
    const row = (e.target as Element).closest('tr');
    if (row && !(e.target as Element).closest('a')) choose(row);
  });
  body.addEventListener('keydown', (e) => {
    const row = (e.target as Element).closest('tr');
    if (!row || (e.target as Element).closest('a')) return;
    const at = rows().indexOf(row);
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows().length - 1 }[e.key];
    if (e.key === 'Enter' || e.key === ' ') choose(row);
    else if (next !== undefined && rows()[next]) {
      rows()[next].focus();
      choose(rows()[next]);
    } else return;
    e.preventDefault();
  });
}

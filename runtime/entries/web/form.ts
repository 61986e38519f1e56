// The search form: shows a search's state in its fields (and only the fields of its mode), reads it back when
// submitted, and shows an API error message next to the field it names (or under the button). Identify mode's file
// and Fingerprint mode's peaks are not fields of the state: ./identify.ts and ./fingerprint.ts hold them.
import { FINGERPRINT_RANKS } from '../../api/fingerprintParams.js';
import { $ } from './dom.js';
import { COMMON_MODS, joinMods, modRows, splitMods, type ModChoice } from './mods.js';
import { defaultTolerance, fieldOfError, type Mode, type SearchState } from './state.js';
import type { TaxonPicker } from './taxa.js';

const TEXT_FIELDS = [
  'mz',
  'charge',
  'mass',
  'mass1',
  'mass2',
  'peptide',
  'tolerance',
  'maxVariable',
  'charges',
  'isotopeErrors',
  'fragmentTolerance',
  'ionCharge',
  'topPeaks',
] as const;

const items = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export class SearchForm {
  /** Identify parameters a URL gave that no field shows, kept for the next run. */
  private more: [string, string][] = [];

  constructor(
    readonly form: HTMLFormElement,
    private taxa: TaxonPicker,
  ) {
    $('#mod-rows', form).append(modRows());
    $('#rank', form).append(...FINGERPRINT_RANKS.map((rank) => new Option(rank)));
    form.addEventListener('change', (e) => {
      const name = (e.target as HTMLInputElement).name;
      if (name === 'mode') this.followTolerance();
      if (name === 'mode' || name === 'precursor' || name === 'ion') this.showMode();
    });
  }

  private input = (name: string) => this.form.elements.namedItem(name) as HTMLInputElement;
  private radio = (name: string) =>
    this.form.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)?.value ?? '';
  private check = (name: string, value: string) => {
    const radio = this.form.querySelector<HTMLInputElement>(`input[name="${name}"][value="${value}"]`);
    if (radio) radio.checked = true;
  };

  /** The mode shown, whose default tolerance the field holds until it is changed. */
  private mode = '';

  /** A tolerance left at the last mode's default becomes the new mode's (Fingerprint's is wider). */
  private followTolerance(): void {
    const [from, to] = [this.mode as Mode, this.radio('mode') as Mode];
    const tolerance = this.input('tolerance');
    if (from && this.input('unit').value === 'ppm' && tolerance.value === defaultTolerance(from))
      tolerance.value = defaultTolerance(to);
  }

  /** Shows the rows of the chosen mode (and precursor form, and the peaks' ion). */
  private showMode(): void {
    const mode = (this.mode = this.radio('mode'));
    const precursor = this.radio('precursor');
    const ion = this.input('ion').value;
    for (const row of this.form.querySelectorAll<HTMLElement>('[data-mode]')) {
      const shown =
        row.dataset.mode!.split(' ').includes(mode) &&
        (row.dataset.precursor === undefined || row.dataset.precursor === precursor) &&
        (row.dataset.ion === undefined || row.dataset.ion === ion);
      row.hidden = !shown;
    }
    $('button[type=submit]', this.form).textContent =
      mode === 'identify' ? 'Identify' : mode === 'fingerprint' ? 'Fingerprint' : 'Search';
  }

  set(s: SearchState): void {
    this.check('mode', s.mode);
    this.check('precursor', s.precursor);
    for (const name of TEXT_FIELDS) this.input(name).value = s[name];
    this.input('equateIL').checked = s.equateIL;
    this.input('unit').value = s.unit;
    this.input('fragmentUnit').value = s.fragmentUnit;
    this.input('reviewed').value = s.reviewed;
    this.input('ion').value = s.ion;
    const rank = this.input('rank') as unknown as HTMLSelectElement;
    if (![...rank.options].some((o) => o.value === s.rank)) rank.add(new Option(s.rank)); // a rank a URL gave
    rank.value = s.rank;
    this.more = s.more;
    const pageSize = this.input('pageSize') as unknown as HTMLSelectElement;
    if (![...pageSize.options].some((o) => o.value === s.pageSize)) pageSize.add(new Option(s.pageSize)); // a size a URL gave
    pageSize.value = s.pageSize;
    const { choices, fixedMore, variableMore } = splitMods(s.fixed, s.variable);
    choices.forEach((choice, i) => this.check(`mod-${i}`, choice));
    this.input('fixed').value = fixedMore.join(',');
    this.input('variable').value = variableMore.join(',');
    this.taxa.set(s.taxon);
    this.showMode();
    this.clearErrors();
  }

  /** The search the fields ask for, from its first page. */
  read(): SearchState {
    const text = (name: (typeof TEXT_FIELDS)[number]) => this.input(name).value.trim();
    const choices = COMMON_MODS.map((_, i) => (this.radio(`mod-${i}`) || 'off') as ModChoice);
    const mods = joinMods(choices, items(this.input('fixed').value), items(this.input('variable').value));
    return {
      mode: this.radio('mode') as Mode,
      precursor: this.radio('precursor') as 'mz' | 'mass',
      mz: text('mz'),
      charge: text('charge'),
      mass: text('mass'),
      mass1: text('mass1'),
      mass2: text('mass2'),
      peptide: text('peptide').toUpperCase(),
      equateIL: this.input('equateIL').checked,
      tolerance: text('tolerance'),
      unit: this.input('unit').value,
      ...mods,
      maxVariable: text('maxVariable'),
      taxon: this.taxa.taxa,
      reviewed: this.input('reviewed').value,
      page: '1',
      pageSize: this.input('pageSize').value,
      charges: text('charges'),
      isotopeErrors: text('isotopeErrors'),
      fragmentTolerance: text('fragmentTolerance'),
      fragmentUnit: this.input('fragmentUnit').value,
      ion: this.input('ion').value,
      ionCharge: this.input('ion').value === 'charge' ? text('ionCharge') : '',
      topPeaks: text('topPeaks'),
      rank: this.input('rank').value,
      more: this.more,
    };
  }

  clearErrors(): void {
    for (const p of this.form.querySelectorAll<HTMLElement>('.error')) {
      p.hidden = true;
      p.textContent = '';
    }
    for (const field of this.form.querySelectorAll('[aria-invalid]')) {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-errormessage');
    }
  }

  /** The first field the search's mode needs that is empty, with its message; undefined when none is. */
  missing(s: SearchState): { field: string; message: string } | undefined {
    const needed = {
      precursor: s.precursor === 'mz' ? (['mz', 'charge', 'tolerance'] as const) : (['mass', 'tolerance'] as const),
      range: ['mass1', 'mass2'] as const,
      peptide: ['peptide', 'tolerance'] as const,
      identify: ['tolerance', 'fragmentTolerance', 'charges', 'isotopeErrors'] as const,
      fingerprint: s.ion === 'charge' ? (['tolerance', 'ionCharge'] as const) : (['tolerance'] as const),
    }[s.mode];
    const field = needed.find((name) => s[name] === '');
    if (field === undefined) return undefined;
    const label = this.form.querySelector(`label[for="${field}"]`)?.textContent?.trim() ?? field;
    return { field, message: `${label} is required` };
  }

  /** The API's message, next to the field it names (or `at`), else under the button. */
  showError(message: string, s: SearchState, at?: string): void {
    this.clearErrors();
    const named = at ?? fieldOfError(message, s);
    const field = named && this.form.querySelector(`#${named}-error`) ? named : undefined;
    const slot = $(`#${field ?? 'form'}-error`, this.form);
    slot.textContent = message;
    slot.hidden = false;
    const control = field && this.form.querySelector<HTMLElement>(`[name="${field}"], #${field}-input`);
    if (control) {
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-errormessage', slot.id);
      control.focus();
    }
  }
}

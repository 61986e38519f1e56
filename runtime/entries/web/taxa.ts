// The organism filter: a type-ahead over /api/v1/taxa (arrow keys, Enter, Escape, or the mouse) that adds chosen
// taxa as removable chips. Names of taxa chosen in this tab are remembered for chips restored from a URL (which
// holds only taxIds); others show their taxId.
import type { Answer } from './dataPath.js';
import type { Taxon } from './answers.js';
import { fill, h } from './dom.js';

const NAMES_KEY = 'taxonNames';
const SHOWN = 10;

function rememberedNames(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(NAMES_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

export class TaxonPicker {
  private chosen: string[] = [];
  private options: Taxon[] = [];
  private active = -1;
  private asked = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private input: HTMLInputElement,
    private listbox: HTMLUListElement,
    private chips: HTMLUListElement,
    private ask: (path: string) => Promise<Answer>,
  ) {
    input.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.lookUp(), 120);
    });
    input.addEventListener('keydown', (e) => this.key(e));
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
  }

  /** The taxIds chosen. */
  get taxa(): string[] {
    return [...this.chosen];
  }

  set(taxa: readonly string[]): void {
    this.chosen = [...taxa];
    this.renderChips();
  }

  private async lookUp(): Promise<void> {
    const text = this.input.value.trim();
    const asked = ++this.asked;
    if (!text) return this.close();
    const answer = await this.ask(`/api/v1/taxa?name=${encodeURIComponent(text)}`);
    if (asked !== this.asked) return; // a later keystroke asked again
    this.options = answer.status === 200 ? (JSON.parse(answer.text) as { taxa: Taxon[] }).taxa.slice(0, SHOWN) : [];
    this.active = this.options.length ? 0 : -1;
    this.renderOptions();
  }

  private key(e: KeyboardEvent): void {
    const open = !this.listbox.hidden && this.options.length > 0;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!open) return;
      e.preventDefault();
      this.active = (this.active + (e.key === 'ArrowDown' ? 1 : this.options.length - 1)) % this.options.length;
      this.renderOptions();
    } else if (e.key === 'Enter' && open && this.active >= 0) {
      e.preventDefault();
      this.choose(this.options[this.active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      this.close();
    } else if (e.key === 'Backspace' && this.input.value === '' && this.chosen.length) {
      this.chosen.pop();
      this.renderChips();
    }
  }

  private choose(taxon: Taxon): void {
    const id = String(taxon.taxId);
    sessionStorage.setItem(NAMES_KEY, JSON.stringify({ ...rememberedNames(), [id]: taxon.name }));
    if (!this.chosen.includes(id)) this.chosen.push(id);
    this.input.value = '';
    this.close();
    this.renderChips();
    this.input.focus();
  }

  private close(): void {
    this.options = [];
    this.active = -1;
    this.renderOptions();
  }

  private renderOptions(): void {
    const open = this.options.length > 0;
    this.listbox.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    if (this.active >= 0) this.input.setAttribute('aria-activedescendant', `taxon-option-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
    fill(
      this.listbox,
      this.options.map((t, i) =>
        h(
          'li',
          {
            id: `taxon-option-${i}`,
            role: 'option',
            'aria-selected': String(i === this.active),
            'data-tax-id': t.taxId,
            onmousedown: (e: Event) => (e.preventDefault(), this.choose(t)),
          },
          h('span', {}, t.name),
          h('small', {}, ` ${t.rank} · ${(t.peptides ?? 0).toLocaleString('en-US')} peptides`),
        ),
      ),
    );
  }

  private renderChips(): void {
    const names = rememberedNames();
    fill(
      this.chips,
      this.chosen.map((id) => {
        const name = names[id] ?? `taxId ${id}`;
        const remove = () => {
          this.chosen = this.chosen.filter((c) => c !== id);
          this.renderChips();
          this.input.focus();
        };
        return h(
          'li',
          { class: 'chip', 'data-tax-id': id },
          name,
          h('button', { type: 'button', 'aria-label': `Remove ${name}`, onclick: remove }, '×'),
        );
      }),
    );
  }
}

// Fingerprint mode's controller: the peak list — pasted into the text box, or a file chosen or dropped on the page
// while the mode is on (text, CSV, MGF, mzML, gzip: sent as it is) — run on the page's data path and shown, both
// loaded when first needed (./fingerprintParts.ts): the page opens without them. The last runs' answers are kept, so
// back and forward show them again without running anew.
import type { Answer } from './dataPath.js';
import { $, fill, h } from './dom.js';
import type { FingerprintRunner } from './fingerprintParts.js';
import type { SearchForm } from './form.js';
import { fingerprintQuery, fingerprintRefusal, type SearchState } from './state.js';

/** Answers kept for back and forward. */
const KEPT = 4;

interface Kept {
  input: File | string;
  status: number;
  query: string;
  text: string;
  ms: number;
  path: 'api' | 'browser';
}

const sizeText = (bytes: number) =>
  bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

export class FingerprintMode {
  private file: File | undefined;
  private kept: Kept[] = [];
  private runner: FingerprintRunner | undefined;
  private readonly text: HTMLTextAreaElement;
  private readonly chosen: HTMLElement;

  /**
   * `section` shows the results; `path` is the data path answering now and `ask` asks it (the proteins' names);
   * `run` runs the form (Fingerprint mode with the peaks held).
   */
  constructor(
    private readonly form: SearchForm,
    private readonly section: HTMLElement,
    private readonly status: HTMLElement,
    private readonly path: () => 'api' | 'browser',
    private readonly ask: (path: string) => Promise<Answer>,
    private readonly run: () => void,
  ) {
    const input = $<HTMLInputElement>('#peak-file', form.form);
    const zone = $('#peak-dropzone', form.form);
    this.text = $<HTMLTextAreaElement>('#peaks', form.form);
    this.chosen = $('#peak-file-chosen', form.form);
    const mode = form.form.querySelector<HTMLInputElement>('input[name="mode"][value="fingerprint"]')!;
    input.addEventListener('change', () => input.files?.[0] && this.choose(input.files[0]));
    input.addEventListener('click', () => (input.value = ''));
    // Text typed or pasted is the peak list from then on.
    this.text.addEventListener('input', () => {
      this.file = undefined;
      this.chosen.textContent = '';
    });
    // While the mode is on, a file dropped anywhere on the page is its peak list (caught before Identify mode's
    // handler, which would take it for MS/MS spectra), never opened by the browser in the page's place.
    const mine = (e: DragEvent) => mode.checked && !!e.dataTransfer?.types.includes('Files');
    window.addEventListener(
      'dragover',
      (e) => {
        if (!mine(e)) return;
        e.preventDefault();
        e.stopPropagation();
        zone.classList.add('over');
      },
      true,
    );
    window.addEventListener('dragleave', (e) => e.relatedTarget === null && zone.classList.remove('over'), true);
    window.addEventListener(
      'drop',
      (e) => {
        zone.classList.remove('over');
        if (!mine(e) || !e.dataTransfer?.files.length) return;
        e.preventDefault();
        e.stopPropagation();
        input.files = e.dataTransfer.files;
        this.choose(e.dataTransfer.files[0]);
      },
      true,
    );
  }

  private choose(file: File): void {
    this.file = file;
    this.text.value = '';
    this.chosen.textContent = `${file.name} · ${sizeText(file.size)}`;
    this.run();
  }

  /** The peak list held: the file chosen, else the text pasted (undefined when there is neither). */
  private input(): File | string | undefined {
    return this.file ?? (this.text.value.trim() ? this.text.value : undefined);
  }

  /** The refusal of a run before it starts: no peaks, or parameters the API refuses (its message and field). */
  refusal(s: SearchState): { message: string; field?: string } | undefined {
    if (this.input() === undefined)
      return { message: 'Paste a peak list (one m/z a line) or choose a file', field: 'peaks' };
    const refused = fingerprintRefusal(s);
    return refused === undefined ? undefined : { message: refused };
  }

  /** Stops a run under way. */
  cancel(): void {
    this.runner?.cancel();
  }

  /** Shows the results for `s`: kept, else a new run (nothing shown while `current()` says a later view took over). */
  async show(s: SearchState, current: () => boolean): Promise<void> {
    const input = this.input();
    const query = fingerprintQuery(s);
    this.section.hidden = false;
    if (input === undefined) {
      this.section.dataset.view = 'fingerprint-empty';
      return fill(
        this.section,
        h('h2', {}, 'Which proteins explain a peak list?'),
        h('p', { class: 'empty' }, 'Paste a peak list above, or choose or drop a file: its proteins are ranked here.'),
      );
    }
    const kept = this.kept.find((k) => k.input === input && k.query === query);
    if (kept) return this.render(kept, s, current);
    const name = typeof input === 'string' ? 'the pasted peaks' : input.name;
    this.section.dataset.view = 'fingerprint-running';
    fill(this.section, h('h2', {}, `Fingerprinting ${name}`), h('progress', {}));
    this.status.textContent = `Fingerprinting ${name}…`;
    const started = performance.now();
    const { Cancelled, FingerprintRunner } = await import('./fingerprintParts.js');
    if (!current()) return;
    this.runner ??= new FingerprintRunner();
    try {
      const outcome = await this.runner.run(input, query, this.path());
      if (!current()) return;
      const run = { input, query, ...outcome, ms: performance.now() - started };
      if (outcome.status === 200) this.kept = [run, ...this.kept].slice(0, KEPT);
      await this.render(run, s, current);
    } catch (e) {
      if (!current() || e instanceof Cancelled) return;
      this.section.hidden = true;
      this.form.showError(`the fingerprint failed: ${(e as Error).message}`, s);
    }
  }

  private async render(run: Kept, s: SearchState, current: () => boolean): Promise<void> {
    const parts = await import('./fingerprintParts.js');
    if (!current()) return;
    if (run.status !== 200) {
      this.section.hidden = true;
      return this.form.showError(parts.errorOf(run), s);
    }
    const name = typeof run.input === 'string' ? 'the pasted peaks' : run.input.name;
    const answer = JSON.parse(run.text);
    parts.renderFingerprint(this.section, `Proteins that explain ${name}`, {
      answer,
      text: run.text,
      tsv: () => parts.fingerprintTsv(answer.lists),
      fileName: parts.fingerprintFileName(typeof run.input === 'string' ? 'peaks' : run.input.name, run.query),
      ms: run.ms,
      path: run.path,
      names: (proteins) => parts.proteinNames(this.ask, proteins),
    });
  }
}

// Identify mode's controller: the file (chosen, or dropped anywhere on the page) with its name and size, the run on
// the page's data path (./identifyRun.ts) with its progress, and the results (./identifyView.ts) — both loaded when
// first needed (./identifyParts.ts): the page opens without them. The last runs' answers are kept, so back and
// forward show them again without scoring anew.
import { parseIdentifyQuery } from '../../api/identifyParams.js';
import { $, fill, h } from './dom.js';
import type { SearchForm } from './form.js';
import type { IdentifyAnswer } from './identifyAnswer.js';
import type { IdentifyRunner, RunProgress } from './identifyParts.js';
import { identifyQuery, type SearchState } from './state.js';

/** Answers kept for back and forward. */
const KEPT = 4;

const sizeText = (bytes: number) =>
  bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** A download's name: the file's, then the run's whole query, in characters any file system takes. */
function fileName(file: File, query: string): string {
  const stem = file.name.replace(/\.gz$/i, '').replace(/\.[^.]*$/, '');
  const params = query.replace(/%2C|,/gi, '+').replace(/[^A-Za-z0-9.@+]+/g, '-');
  return `${stem}-identified-${params}`.slice(0, 200);
}

/** The same file chosen again (a new File object each time). */
const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

interface Kept {
  file: File;
  query: string;
  json: string;
  ms: number;
  path: 'api' | 'browser';
}

export class IdentifyMode {
  private file: File | undefined;
  private runner: IdentifyRunner | undefined;
  private kept: Kept[] = [];
  /** A file over the API's limits that its user chose to identify in this browser. */
  private inBrowser: File | undefined;

  /**
   * `section` shows the results, `status` the run's state; `path` is the data path answering now; `run` runs the
   * form (Identify mode with the file held).
   */
  constructor(
    private readonly form: SearchForm,
    private readonly section: HTMLElement,
    private readonly status: HTMLElement,
    private readonly path: () => 'api' | 'browser',
    private readonly run: () => void,
  ) {
    const input = $<HTMLInputElement>('#file', form.form);
    const zone = $('#dropzone', form.form);
    input.addEventListener('change', () => input.files?.[0] && this.choose(input.files[0]));
    // Emptied as its dialog opens, so that choosing the same file again (edited since, say) runs it again.
    input.addEventListener('click', () => (input.value = ''));
    const mode = form.form.querySelector<HTMLInputElement>('input[name="mode"][value="identify"]')!;
    // A file dropped anywhere on the page is identified (Identify mode is chosen for it), never opened by the
    // browser in the page's place.
    document.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      zone.classList.add('over');
    });
    document.addEventListener('dragleave', (e) => e.relatedTarget === null && zone.classList.remove('over'));
    document.addEventListener('drop', (e) => {
      const files = e.dataTransfer?.files;
      zone.classList.remove('over');
      if (!files?.length) return;
      e.preventDefault();
      if (!mode.checked) {
        mode.checked = true;
        mode.dispatchEvent(new Event('change', { bubbles: true })); // the form shows Identify mode's fields
      }
      input.files = files;
      this.choose(files[0]);
    });
  }

  private choose(file: File): void {
    this.file = file;
    $('#file-chosen', this.form.form).textContent = `${file.name} · ${sizeText(file.size)}`;
    this.run();
  }

  /** The refusal of a run before it starts: no file, or parameters the API refuses (its message and field). */
  refusal(s: SearchState): { message: string; field?: string } | undefined {
    if (!this.file) return { message: 'Choose an MGF or mzML file (or drop one here)', field: 'file' };
    try {
      parseIdentifyQuery((name) => new URLSearchParams(identifyQuery(s)).getAll(name));
      return undefined;
    } catch (e) {
      return { message: (e as Error).message };
    }
  }

  /** Stops a run under way. */
  cancel(): void {
    this.runner?.cancel();
  }

  /**
   * Shows Identify mode's results for `s`: the kept answer for the file held and these parameters, else a new run
   * (nothing shown while `current()` says a later view took the page over).
   */
  async show(s: SearchState, current: () => boolean): Promise<void> {
    const file = this.file;
    const query = identifyQuery(s);
    this.section.hidden = false;
    if (!file) {
      this.section.dataset.view = 'identify-empty';
      return fill(
        this.section,
        h('h2', {}, 'Identify peptides from MS/MS spectra'),
        h(
          'p',
          { class: 'empty' },
          'Choose or drop an MGF or mzML file above: its spectra are identified with these parameters.',
        ),
      );
    }
    const kept = this.kept.find((k) => k.file === file && k.query === query);
    if (kept) return this.render(kept, current);
    const progress = h('progress', { max: 1 });
    const text = h('p', { class: 'progress-text' });
    this.section.dataset.view = 'identify-running';
    fill(this.section, h('h2', {}, `Identifying ${file.name}`), progress, text);
    this.status.textContent = `Identifying ${file.name}…`;
    const shown = (p: RunProgress) => {
      if (!current()) return;
      text.textContent = p.text;
      if (p.fraction === undefined) progress.removeAttribute('value');
      else progress.value = p.fraction;
    };
    const started = performance.now();
    const path = this.inBrowser && sameFile(this.inBrowser, file) ? 'browser' : this.path();
    const { Cancelled, IdentifyRunner, RunError } = await import('./identifyParts.js');
    if (!current()) return;
    this.runner ??= new IdentifyRunner();
    try {
      const outcome = await this.runner.run(file, query, path, shown);
      if (!current()) return;
      const run = { file, query, ...outcome, ms: performance.now() - started };
      this.kept = [run, ...this.kept].slice(0, KEPT);
      await this.render(run, current);
    } catch (e) {
      if (!current() || e instanceof Cancelled) return;
      this.section.hidden = true;
      const failed = e instanceof RunError ? e : new RunError(`the identification failed: ${(e as Error).message}`);
      this.form.showError(failed.message, s, failed.file ? 'file' : undefined);
      if (failed.overLimit) this.offerBrowser(file);
    }
  }

  /** Over the API's limits: a button to identify the file in this browser instead. */
  private offerBrowser(file: File): void {
    this.section.hidden = false;
    this.section.dataset.view = 'identify-refused';
    fill(
      this.section,
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            this.inBrowser = file;
            this.run();
          },
        },
        `Identify ${file.name} in this browser instead`,
      ),
    );
  }

  private async render(run: Kept, current: () => boolean): Promise<void> {
    const { renderIdentification, findSpectrum, openPeakFile } = await import('./identifyParts.js');
    if (!current()) return;
    const query = new URLSearchParams(run.query);
    const identify = parseIdentifyQuery((name) => query.getAll(name));
    const peaks = openPeakFile(run.file, run.file.name);
    renderIdentification(this.section, `Peptides identified in ${run.file.name}`, {
      answer: JSON.parse(run.json) as IdentifyAnswer,
      text: run.json,
      fileName: fileName(run.file, run.query),
      ms: run.ms,
      path: run.path,
      settings: identify,
      spectrum: async (scannr) => findSpectrum(await peaks, scannr),
    });
  }
}

// Layering rules of the code, checked by dependency-cruiser in `npm test` (`npm run lint:deps`): the layers (model,
// core, api, entries; the builder beside them) and, inside runtime/core, its capabilities (docs/architecture.md explains them).
const NODE_BUILTIN = { dependencyTypes: ['core'] };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No module depends on itself through others.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-neutral-layers',
      severity: 'error',
      comment:
        'model, core and api run unchanged in Node, at the edge and in the browser: no node: modules (entries adapt platforms).',
      from: { path: '^runtime/(model|core|api)/' },
      to: NODE_BUILTIN,
    },
    {
      name: 'model-is-the-base',
      severity: 'error',
      comment: 'runtime/model (chemistry, mass keys, format) imports no other layer: build and runtime share it.',
      from: { path: '^runtime/model/' },
      to: { path: '^(runtime/(core|api|entries)|builder)/' },
    },
    {
      name: 'core-below-api',
      severity: 'error',
      comment:
        'runtime/core (storage, searches, look-ups) knows nothing of HTTP, answers or platforms: statuses, paths, parameter tables and renderers are runtime/api.',
      from: { path: '^runtime/core/' },
      to: { path: '^(runtime/(api|entries)|builder)/' },
    },
    {
      name: 'core-storage-is-the-base',
      severity: 'error',
      comment:
        'runtime/core/storage (sources, files, dataset, caches) serves every capability and imports none of them.',
      from: { path: '^runtime/core/storage/' },
      to: { path: '^runtime/core/(range|precursor|match|lookup|identify|fingerprint)/' },
    },
    {
      name: 'core-range-below-searches',
      severity: 'error',
      comment:
        'Range search (runtime/core/range) is what precursor search, matching and look-ups build on, not the reverse.',
      from: { path: '^runtime/core/range/' },
      to: { path: '^runtime/core/(precursor|match|lookup|fingerprint)/' },
    },
    {
      name: 'core-match-above-precursor',
      severity: 'error',
      comment:
        'Batch matching (runtime/core/match) runs precursor searches; precursor search and look-ups know nothing of it.',
      from: { path: '^runtime/core/(precursor|lookup)/' },
      to: { path: '^runtime/core/match/' },
    },
    {
      name: 'core-identify-on-top',
      severity: 'error',
      comment:
        'Identification (runtime/core/identify) scores what batch matching finds; no other capability knows of it.',
      from: { path: '^runtime/core/(storage|range|precursor|match|lookup|fingerprint)/' },
      to: { path: '^runtime/core/identify/' },
    },
    {
      name: 'core-fingerprint-on-top',
      severity: 'error',
      comment:
        'Fingerprinting (runtime/core/fingerprint) scores what the batch sweep finds for MS1 peaks; no other capability knows of it.',
      from: { path: '^runtime/core/(storage|range|precursor|match|lookup|identify)/' },
      to: { path: '^runtime/core/fingerprint/' },
    },
    {
      name: 'core-lookups-apart',
      severity: 'error',
      comment:
        'Look-ups (runtime/core/lookup) and precursor search are separate capabilities over range search and storage.',
      from: { path: '^runtime/core/(precursor|lookup)/' },
      to: { path: '^runtime/core/(precursor|lookup)/', pathNot: '^runtime/core/$1/' },
    },
    {
      name: 'api-below-entries',
      severity: 'error',
      comment: 'runtime/api (answers, renderers, handler, OpenAPI) is wrapped by platform entries, never the reverse.',
      from: { path: '^runtime/api/' },
      to: { path: '^(runtime/entries|builder)/' },
    },
    {
      name: 'runtime-without-build',
      severity: 'error',
      comment: 'Serving never pulls in the build (npm start builds the bundled dataset in its prestart step).',
      from: { path: '^runtime/' },
      to: { path: '^builder/' },
    },
    {
      name: 'build-imports-only-the-model',
      severity: 'error',
      comment: 'The build shares the chemistry and the format with the runtime, nothing else.',
      from: { path: '^builder/' },
      to: { path: '^runtime/(core|api|entries)/' },
    },
    {
      name: 'entries-are-leaves',
      severity: 'error',
      comment:
        'A platform entry is imported by no other platform entry folder (node helpers are shared by Node-based entries only; the page may use the browser core).',
      from: { path: '^runtime/entries/(browser|web)/' },
      to: { path: '^runtime/entries/(node|cli|netlify)/' },
    },
    {
      name: 'web-page-runs-in-the-browser',
      severity: 'error',
      comment:
        'The web page (runtime/entries/web) runs in the browser: no node: modules, except in its Node-side build step (bundle.ts, build.ts).',
      from: { path: '^runtime/entries/web/', pathNot: '^runtime/entries/web/(bundle|build)[.]ts$' },
      to: NODE_BUILTIN,
    },
    {
      name: 'progress-bars-in-the-cli',
      severity: 'error',
      comment:
        'The terminal progress bar (cli-progress) belongs to the command lines; answers, the core and the build phases stay free of it.',
      from: { pathNot: '^(runtime/entries/cli|builder/commands)/' },
      to: { path: 'node_modules/cli-progress' },
    },
    {
      name: 'product-without-tests',
      severity: 'error',
      comment: 'Product code never imports test code.',
      from: { path: '^(builder|runtime)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};

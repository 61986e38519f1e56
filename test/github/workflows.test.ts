// Tests the GitHub Actions workflows as files: they parse as YAML, every script a step runs exists and is
// executable, every variable a script requires (`: "${NAME:?}"`) is given to its step, and the partitioned
// build's matrix step prints the JSON list of parts GitHub's fromJSON expects.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { removeTempDirs, tempDir } from '../helpers/datasets.js';
import { REPO } from '../helpers/process.js';

afterAll(removeTempDirs);

interface Step {
  name?: string;
  id?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
  strategy?: { matrix: Record<string, unknown> };
  outputs?: Record<string, string>;
}
interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

const WORKFLOWS = join(REPO, '.github/workflows');
const read = (file: string) => parse(readFileSync(join(WORKFLOWS, file), 'utf8')) as Workflow;

describe('the workflows', () => {
  const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml'));

  it('parse, and every job has steps', () => {
    expect(files).toEqual(expect.arrayContaining(['partitioned-build.yml', 'rebuild.yml']));
    for (const file of files)
      for (const job of Object.values(read(file).jobs)) expect(job.steps.length, file).toBeGreaterThan(0);
  });

  it('run scripts that exist, are executable, and get every variable they require', () => {
    let scripts = 0;
    for (const file of files) {
      const workflow = read(file);
      for (const job of Object.values(workflow.jobs)) {
        for (const step of job.steps) {
          const script = /(\.github\/scripts\/[\w.-]+\.sh)/.exec(step.run ?? '')?.[1];
          if (!script) continue;
          scripts++;
          accessSync(join(REPO, script), constants.X_OK);
          const required = [...readFileSync(join(REPO, script), 'utf8').matchAll(/"\$\{(\w+):\?\}"/g)].map((m) => m[1]);
          const given = new Set(Object.keys({ ...workflow.env, ...job.env, ...step.env }));
          for (const name of required) expect(given.has(name), `${script} needs ${name} in ${file}`).toBe(true);
        }
      }
    }
    expect(scripts).toBe(3);
  });

  it('partitioned-build: the matrix step prints [1..N] for fromJSON', () => {
    const workflow = read('partitioned-build.yml');
    const step = workflow.jobs.plan.steps.find((s) => s.id === 'matrix')!;
    expect(workflow.jobs.plan.outputs?.parts).toBe('${{ steps.matrix.outputs.parts }}');
    expect(workflow.jobs.part.strategy?.matrix.part).toBe('${{ fromJSON(needs.plan.outputs.parts) }}');
    const output = join(tempDir('workflow'), 'github-output');
    for (const parts of [1, 4, 16]) {
      writeFileSync(output, '');
      execFileSync('bash', ['-c', step.run!.replace('${{ inputs.parts }}', String(parts))], {
        env: { ...process.env, GITHUB_OUTPUT: output },
      });
      expect(readFileSync(output, 'utf8').trim()).toBe(
        `parts=${JSON.stringify(Array.from({ length: parts }, (_, i) => i + 1))}`,
      );
    }
  });
});

// A stand-in for the AWS CLI's `aws s3 cp | sync | rm` over a local folder, for the CI scripts' tests
// (test/github/partitionedBuild.test.ts): s3://bucket/key is $FAKE_S3_ROOT/bucket/key. Every object written
// or removed is appended to $FAKE_S3_ROOT/calls.log, in order. Flags it does not model (content type, cache
// control) are recorded with the call, not applied.
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

const root = process.env.FAKE_S3_ROOT!;
const [service, command, ...args] = process.argv.slice(2);
const positional: string[] = [];
const excludes: string[] = [];
const flags: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--exclude') excludes.push(args[++i]);
  else if (['--content-type', '--cache-control'].includes(args[i])) flags.push(`${args[i]}=${args[++i]}`);
  else if (args[i].startsWith('--')) flags.push(args[i]);
  else positional.push(args[i]);
}

/** A local path for an s3:// URL or a local path. */
const local = (path: string) => (path.startsWith('s3://') ? join(root, path.slice(5)) : path);
/** `file` below folder or prefix `base`. */
const within = (base: string, file: string) => (base.endsWith('/') ? base : `${base}/`) + file;
const log = (line: string) => appendFileSync(join(root, 'calls.log'), `${line}\n`);
/** The AWS CLI's --exclude patterns: `*` matches any characters, `/` included; the whole relative path must match. */
const excluded = (path: string) =>
  excludes.some((p) =>
    new RegExp(
      `^${p
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(path),
  );
const filesBelow = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));

function put(from: string, to: string): void {
  mkdirSync(dirname(local(to)), { recursive: true });
  copyFileSync(local(from), local(to));
  log(`put ${to} ${flags.join(' ')}`.trim());
}

if (service !== 's3') throw new Error(`fake aws: only s3, got ${service}`);
if (command === 'cp' && positional[0] === '-') {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  mkdirSync(dirname(local(positional[1])), { recursive: true });
  writeFileSync(local(positional[1]), Buffer.concat(chunks));
  log(`put ${positional[1]} ${flags.join(' ')}`.trim());
} else if (command === 'cp' && flags.includes('--recursive')) {
  const [from, to] = positional;
  for (const file of filesBelow(local(from))) put(within(from, file), within(to, file));
} else if (command === 'cp') {
  const [from, to] = positional;
  put(from, to.endsWith('/') ? to + basename(from) : to);
} else if (command === 'sync') {
  const [from, to] = positional;
  for (const file of filesBelow(local(from))) {
    if (excluded(file)) continue;
    const target = within(to, file);
    if (
      flags.includes('--size-only') &&
      existsSync(local(target)) &&
      statSync(local(target)).size === statSync(join(local(from), file)).size
    )
      continue;
    put(within(from, file), target);
  }
} else if (command === 'rm') {
  rmSync(local(positional[0]), { recursive: flags.includes('--recursive'), force: true });
  log(`rm ${positional[0]}`);
} else throw new Error(`fake aws: s3 ${command} is not modelled`);

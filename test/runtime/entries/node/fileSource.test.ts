// Tests runtime/entries/node/fileSource.ts: FileSource reads a dataset folder's files as bytes; a missing file is a
// permanent "not found"; other read failures name their code; invalid names and traversal are refused before any
// read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSource } from '../../../../runtime/entries/node/fileSource.js';
import { removeTempDirs, tempDir } from '../../../helpers/datasets.js';
import { sourceFailure } from '../../../helpers/faultySource.js';

let root: string;
let dir: string;
const BYTES = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256));

beforeAll(() => {
  root = tempDir('filesource');
  dir = join(root, 'dataset');
  mkdirSync(dir);
  writeFileSync(join(dir, 'abc.msgpack'), BYTES);
  writeFileSync(join(dir, 'manifest.json'), '{"x":1}');
  writeFileSync(join(dir, 'empty.bin'), '');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(root, 'secret.txt'), 'outside the dataset');
});

afterAll(removeTempDirs);

const failure = sourceFailure;

describe('FileSource', () => {
  it('describes itself by its folder', () => {
    expect(new FileSource(dir).description).toBe(`folder ${dir}`);
  });

  it('reads files of the folder as bytes', async () => {
    const source = new FileSource(dir);
    const bytes = await source.get('abc.msgpack');
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes).equals(BYTES)).toBe(true);
    expect(new TextDecoder().decode(await source.get('manifest.json'))).toBe('{"x":1}');
    expect((await source.get('empty.bin')).length).toBe(0);
  });

  it('answers a missing file as permanently not found', async () => {
    expect(await failure(new FileSource(dir).get('nope.msgpack'))).toMatchObject({
      transient: false,
      message: 'nope.msgpack: not found',
    });
    expect(await failure(new FileSource(join(root, 'no-such-dir')).get('manifest.json'))).toMatchObject({
      transient: false,
      message: 'manifest.json: not found',
    });
  });

  it('names the code of other read failures', async () => {
    expect((await failure(new FileSource(dir).get('sub'))).message).toBe('sub: EISDIR');
  });

  it('refuses invalid names and traversal before reading', async () => {
    const source = new FileSource(dir);
    for (const name of [
      '../secret.txt',
      '..',
      '.',
      'sub/../abc.msgpack',
      '/etc/passwd',
      'a\\b',
      '.hidden',
      '',
      '%2e%2e',
      'x\u0000y',
    ]) {
      expect(await failure(source.get(name)), name).toMatchObject({
        transient: false,
        message: `invalid dataset file name "${name}"`,
      });
    }
  });
});

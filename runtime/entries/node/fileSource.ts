// The local-folder ShardSource: a dataset folder on disk (npm start, the offline tool, tests).
import { readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { checkName, SourceError, type ShardSource } from '../../core/storage/source.js';

export class FileSource implements ShardSource {
  readonly description: string;

  constructor(private dir: string) {
    this.description = `folder ${dir}`;
  }

  async get(file: string): Promise<Uint8Array> {
    checkName(file);
    const path = normalize(join(this.dir, file));
    if (!path.startsWith(normalize(this.dir + sep)))
      throw new SourceError(`invalid dataset file name "${file}"`, false);
    // Synchronous: a dataset file is small and usually cached, and the thread pool's round trip costs more than the
    // read.
    try {
      return readFileSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new SourceError(`${file}: ${code === 'ENOENT' ? 'not found' : (code ?? 'unreadable')}`, code !== 'ENOENT');
    }
  }
}

// Reads files of fetched public repositories from their git mirrors (no work tree) at a pinned commit.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const MIRROR_ROOT = process.env.INJECTION_MIRROR_ROOT ?? '/work/.mirror';

export interface RepoPin {
  repo: string; // owner/name
  commit: string; // 40 hex
}

export class MirrorMissingError extends Error {}

export function gitDir(repo: string): string {
  return path.join(MIRROR_ROOT, repo.replace('/', '+'), 'repo');
}

function git(pin: RepoPin, args: string[], encoding: 'utf8' | 'buffer' = 'utf8'): string | Buffer {
  const dir = gitDir(pin.repo);
  if (!existsSync(dir)) {
    throw new MirrorMissingError(
      `mirror of ${pin.repo} is missing at ${dir}: bring it with the search tool's fetch ("github:${pin.repo}"), ` +
        `or set INJECTION_MIRROR_ROOT; the build reads commit ${pin.commit}`,
    );
  }
  try {
    return execFileSync('git', ['--git-dir', dir, ...args], {
      maxBuffer: 512 * 1024 * 1024,
      encoding: encoding === 'utf8' ? 'utf8' : 'buffer',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer | string }).stderr?.toString() ?? '';
    throw new MirrorMissingError(
      `git ${args.join(' ')} failed in the mirror of ${pin.repo} (is commit ${pin.commit} there? refetch it): ${stderr.trim()}`,
    );
  }
}

/** Paths of the blobs under `prefix` at the pinned commit, sorted; blobs the snapshot left out are skipped. */
export function listFiles(pin: RepoPin, prefix = ''): string[] {
  const out = git(pin, ['ls-tree', '-r', '-l', '-z', pin.commit, ...(prefix ? ['--', prefix] : [])]) as string;
  const files: string[] = [];
  for (const entry of out.split('\0')) {
    if (!entry) continue;
    const tab = entry.indexOf('\t');
    const meta = entry.slice(0, tab).split(/\s+/);
    if (meta[1] !== 'blob') continue;
    files.push(entry.slice(tab + 1));
  }
  return files.sort();
}

export function readBuffer(pin: RepoPin, file: string): Buffer {
  return git(pin, ['cat-file', 'blob', `${pin.commit}:${file}`], 'buffer') as Buffer;
}

export function readText(pin: RepoPin, file: string): string {
  return readBuffer(pin, file).toString('utf8');
}

/** Reads many files with one `git cat-file --batch` (one process per file is far too slow for 20,000 pages). */
export function readMany(pin: RepoPin, files: readonly string[]): Map<string, string> {
  const dir = gitDir(pin.repo);
  if (!existsSync(dir)) git(pin, ['rev-parse', 'HEAD']); // throws the MirrorMissingError with the fetch hint
  const out = execFileSync('git', ['--git-dir', dir, 'cat-file', '--batch'], {
    input: `${files.map((f) => `${pin.commit}:${f}`).join('\n')}\n`,
    maxBuffer: 1024 * 1024 * 1024,
  });
  const result = new Map<string, string>();
  let pos = 0;
  for (const file of files) {
    const nl = out.indexOf(10, pos);
    const header = out.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    if (header.endsWith(' missing')) continue;
    const size = Number(header.split(' ')[2]);
    result.set(file, out.subarray(pos, pos + size).toString('utf8'));
    pos += size + 1;
  }
  return result;
}

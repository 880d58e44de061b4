import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';

/**
 * A copy of the working tree in a fresh private directory (mode 0700, as `mktemp -d` and /root are), with the
 * installed node_modules hard-linked into it (symlinked when it is on another file system): a clone as a newcomer
 * would make it, without `.data`, `.next` or anything else that is ignored. `parentMode` 0o755 makes it an ordinary
 * clone that every user can reach (a home directory), where the embedded database stays inside the tree.
 */
export async function makePrivateClone(options: { parentMode?: number } = {}): Promise<{ root: string; remove(): Promise<void> }> {
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'private-clone-'));
  await fs.chmod(parent, options.parentMode ?? 0o700);
  const root = path.join(parent, 'clone');
  await fs.mkdir(root);
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repositoryRoot, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    const source = path.join(repositoryRoot, file);
    const stat = await fs.lstat(source).catch(() => undefined);
    if (!stat?.isFile()) continue; // deleted in the working tree
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.copyFile(source, path.join(root, file));
  }
  // A repository of its own, as after `git clone` (tools such as Tailwind's class scanner follow .gitignore only there).
  execFileSync('git', ['init', '-q'], { cwd: root, stdio: 'ignore' });
  try {
    execFileSync('cp', ['-al', path.join(repositoryRoot, 'node_modules'), root], { stdio: 'ignore' });
  } catch {
    await fs.rm(path.join(root, 'node_modules'), { recursive: true, force: true });
    await fs.symlink(path.join(repositoryRoot, 'node_modules'), path.join(root, 'node_modules'));
  }
  return { root, remove: () => fs.rm(parent, { recursive: true, force: true }) };
}

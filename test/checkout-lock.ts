import fs from 'node:fs/promises';
import path from 'node:path';

const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Takes a lock on something of this checkout that one process at a time may use (its production build, its one
 * development server), across test runs: a directory (mkdir is atomic) holding the holder's pid; one left by a killed
 * process is taken over. Answers how to let it go (once; later calls do nothing).
 */
export async function acquireCheckoutLock(lockPath: string, timeoutMs: number): Promise<() => Promise<void>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fs.mkdir(lockPath);
      await fs.writeFile(path.join(lockPath, 'pid'), String(process.pid));
      let released = false;
      // Once only: a second call could remove the lock the next holder has taken meanwhile.
      return async () => {
        if (released) return;
        released = true;
        await fs.rm(lockPath, { recursive: true, force: true });
      };
    } catch {
      const holder = Number(await fs.readFile(path.join(lockPath, 'pid'), 'utf8').catch(() => '0'));
      if (holder > 0 && !processAlive(holder)) await fs.rm(lockPath, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another process (${holder}) has held ${lockPath} for ${Math.round(timeoutMs / 60_000)} minutes`);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

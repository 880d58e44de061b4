import type { Database } from '../db/client';
import { CHANNELS } from '.';
import type { DevSandboxModule } from './channel';

/**
 * `npm run dev` with the sandbox on: starts each channel's development sandbox (Channel.devSandbox, a module path
 * from the project root), in the registry's order. Answers how to stop them all. Beside the registry, not in
 * lib/sandbox/: it reads every channel, and lib/sandbox (the sandbox switch) stays below the channels that ask it.
 */
export async function startDevSandboxes(db: Database, log: (line: string) => void): Promise<{ close(): Promise<void> }> {
  const started: { close(): Promise<void> }[] = [];
  for (const channel of CHANNELS) {
    if (!channel.devSandbox) continue;
    const sandboxModule = (await import(new URL(`../../${channel.devSandbox}`, import.meta.url).href)) as DevSandboxModule;
    const sandbox = await sandboxModule.startDevSandbox(db, log);
    if (sandbox) started.push(sandbox);
  }
  return {
    async close() {
      for (const sandbox of started) await sandbox.close().catch(() => undefined);
    },
  };
}

import { describe, expect, it } from 'vitest';
import { CHANNELS } from '.';
import type { DevSandboxModule } from './channel';

describe('channel development sandboxes', () => {
  // A devSandbox is a path, which the type checker cannot follow: this is its check.
  it('each devSandbox names a module that exports startDevSandbox', async () => {
    const named = CHANNELS.filter((channel) => channel.devSandbox);
    expect(named.length).toBeGreaterThan(0);
    for (const channel of named) {
      const sandboxModule = (await import(new URL(`../../${channel.devSandbox}`, import.meta.url).href)) as DevSandboxModule;
      expect(typeof sandboxModule.startDevSandbox, channel.name).toBe('function');
    }
  });
});

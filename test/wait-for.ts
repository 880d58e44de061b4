/** Resolves once `condition()` holds, looking every 10 ms; throws, naming what it waited for, after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once the asynchronous `check()` holds, asking every 100 ms; throws, naming what it waited for, after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 8_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

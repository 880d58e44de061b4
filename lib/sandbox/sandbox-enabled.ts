/**
 * The built-in upstream simulators (sandbox/<upstream>/, mounted under /sandbox/…) are on in development and tests
 * and off in production unless SANDBOX_ENABLED=true.
 */
export function sandboxEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const configured = env.SANDBOX_ENABLED;
  if (configured !== undefined && configured !== '') return configured === 'true';
  return env.NODE_ENV !== 'production';
}

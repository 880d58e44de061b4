/**
 * The built-in upstream simulators (sandbox/<upstream>/, mounted under /sandbox/…) are on in development and tests
 * and off in production unless SANDBOX_ENABLED=true.
 */
export function sandboxEnabled(): boolean {
  const configured = process.env.SANDBOX_ENABLED;
  if (configured !== undefined && configured !== '') return configured === 'true';
  return process.env.NODE_ENV !== 'production';
}

/**
 * The environment of the service a test starts as a child process on a loopback port: the test's own environment
 * without its test-run settings (NODE_ENV, which the entry point sets; Vitest's), an http public URL on that port,
 * and no workers (a test drives payments and deliveries itself).
 */
export function loopbackServiceEnv(port: number): { baseUrl: string; env: Record<string, string | undefined> } {
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    ALLOW_HTTP_PUBLIC_BASE_URL: 'true',
    WORKERS: 'off',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  delete env.NODE_ENV;
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
  return { baseUrl, env };
}

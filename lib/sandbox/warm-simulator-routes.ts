import { readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * In development Next.js compiles a route on its first request. The simulators' APIs are first asked by the service
 * itself, inside an upstream call with its own timeout (the first order of a fresh `npm run dev`), which a cold
 * compile on a busy machine outlasts. Asking each simulator route once after start compiles them before that.
 * Only fixed paths and catch-alls are asked (a GET, whose answer is ignored); nothing is created. Resolves with how
 * many routes were asked.
 */
export async function warmSimulatorRoutes(baseUrl: string, appDir = path.join(process.cwd(), 'app')): Promise<number> {
  const routes = await simulatorRoutePaths(path.join(appDir, 'sandbox'));
  for (const route of routes) {
    await fetch(new URL(route, baseUrl), { signal: AbortSignal.timeout(120_000) }).then((response) => response.body?.cancel(), () => undefined);
  }
  return routes.length;
}

async function simulatorRoutePaths(sandboxDir: string): Promise<string[]> {
  const entries = await readdir(sandboxDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && entry.name === 'route.ts')
    .map((entry) => path.relative(path.dirname(sandboxDir), entry.parentPath).split(path.sep))
    .filter((segments) => segments.every((segment) => !segment.startsWith('[') || segment.startsWith('[...')))
    .map((segments) => `/${segments.map((segment) => (segment.startsWith('[...') ? 'warm-up' : segment)).join('/')}`);
}

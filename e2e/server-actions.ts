import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { onStagingService } from '../playwright.config';

/**
 * The server actions of the running service as its own build lists them (`server-reference-manifest.json`, what the
 * browser's JavaScript carries too), so a spec can post each one as a browser would, forged or not.
 */
export interface ServerAction {
  id: string;
  /** A page route whose worker serves the action. */
  route: string;
}

function manifests(directory: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return manifests(full);
    return entry === 'server-reference-manifest.json' ? [full] : [];
  });
}

/** The URL of a page worker (`app/operator/(usdt)/addresses/page` → `/operator/addresses`): route groups are not in URLs. */
function routeOfWorker(worker: string): string {
  // A dynamic segment takes any value: the page that serves the URL serves the action.
  return `/${worker.replace(/^app\//, '').replace(/\/page$/, '')}`.replace(/\/\([^/)]+\)/g, '').replace(/\[[^\]]+\]/g, 'x');
}

/** Every server action defined in a file under `folder` (e.g. `app/operator/`), by its exported name. */
export function serverActionsUnder(folder: string): Map<string, ServerAction> {
  const area = folder.replace(/^app\//, '').replace(/\/$/, '');
  const actions = new Map<string, ServerAction>();
  // The manifests of the server under test: the production build's, or the development server's (other ids).
  for (const file of manifests(onStagingService ? '.next/server' : `.next/dev/server/app/${area.split('/')[0]}`)) {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { node: Record<string, { exportedName?: string; filename?: string; workers: Record<string, unknown> }> };
    for (const [id, entry] of Object.entries(manifest.node)) {
      if (!entry.filename?.startsWith(folder) || !entry.exportedName) continue;
      const workers = Object.keys(entry.workers).filter((name) => name.startsWith(`app/${area.split('/')[0]}`));
      const worker = workers.find((name) => !name.includes('[')) ?? workers[0];
      if (worker) actions.set(entry.exportedName, { id, route: routeOfWorker(worker) });
    }
  }
  return actions;
}

/** Posts a server action as the browser does, with the request context's cookies (or none). */
export function postServerAction(context: APIRequestContext, action: ServerAction, args: unknown[], origin: string) {
  return context.post(action.route, {
    headers: { 'next-action': action.id, accept: 'text/x-component', 'content-type': 'text/plain;charset=UTF-8', origin },
    data: JSON.stringify(args),
    maxRedirects: 0,
    failOnStatusCode: false,
  });
}

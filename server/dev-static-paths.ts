import { createRequire } from 'node:module';

type StaticPathsOptions = { pathname: string };
type GetStaticPaths = (this: unknown, options: StaticPathsOptions) => Promise<unknown>;

/**
 * Next.js's development server reads a dynamic route's static params (generateStaticParams) in a Node process it
 * spawns for the purpose and ends after one use, and it does so again in the background on every request to the
 * route (next/dist/server/dev/next-dev-server.js, getStaticPaths). Each such process costs about a second of CPU.
 * The routes the service itself polls are dynamic (the sandbox TRON API the chain watcher reads every few seconds, a
 * checkout's status), so an idle development server kept a core busy. No route here has static params, so the first
 * answer for a route stays its answer until the server restarts.
 *
 * Returns false, and changes nothing, when this Next.js has no such method to wrap (a newer version changed it).
 */
export function readStaticPathsOncePerRoute(): boolean {
  const require = createRequire(import.meta.url);
  const devServer = (require('next/dist/server/dev/next-dev-server') as { default?: { prototype: Record<string, unknown> } }).default;
  const original = devServer?.prototype.getStaticPaths as GetStaticPaths | undefined;
  if (!devServer || typeof original !== 'function') return false;
  const answers = new Map<string, Promise<unknown>>();
  devServer.prototype.getStaticPaths = function (this: unknown, options: StaticPathsOptions) {
    let answer = answers.get(options.pathname);
    if (!answer) {
      answer = original.call(this, options);
      answers.set(options.pathname, answer);
      answer.catch(() => answers.delete(options.pathname)); // a failed read is tried again on the next request
    }
    return answer;
  };
  return true;
}

import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { runCommand } from './run-command';

export interface ClientAnswer {
  /** The protocol the answer came over: HTTP/1.1 for every answer of a server that ignored the h2c offer. */
  version: string;
  status: number;
  body: string;
}

export type ClientRequest = { method: 'GET'; url: string } | { method: 'POST'; url: string; json: string };

/**
 * Sends the requests in order with the JDK's default HttpClient (test/fixtures/DefaultHttpClient.java), which offers
 * h2c on every http:// request. A connection the server closed without a byte fails the program ("HTTP/1.1 header
 * parser received no bytes"), whose output the error carries.
 */
export async function sendWithJavaDefaultClient(requests: readonly ClientRequest[]): Promise<ClientAnswer[]> {
  const args = requests.flatMap((request) => (request.method === 'GET' ? ['GET', request.url] : ['POST', request.url, request.json]));
  const run = await runCommand('java', [path.join(repositoryRoot, 'test', 'fixtures', 'DefaultHttpClient.java'), ...args], { cwd: repositoryRoot, env: process.env, timeoutMs: 120_000 });
  if (run.exitCode !== 0) throw new Error(`java's HttpClient failed (exit ${run.exitCode}):\n${run.output}`);
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [version, status, ...body] = line.split(' ');
      return { version: version === 'HTTP_1_1' ? 'HTTP/1.1' : version === 'HTTP_2' ? 'HTTP/2' : version!, status: Number(status), body: body.join(' ') };
    });
}

/** One request with `curl --http2` (h2c offered on http://); curl's exit 52 is "Empty reply from server". */
export async function sendWithCurlHttp2(request: ClientRequest): Promise<ClientAnswer & { exitCode: number | null; stderr: string }> {
  const body = request.method === 'POST' ? ['-H', 'content-type: application/json', '--data-binary', request.json] : [];
  const run = await runCommand('curl', ['--silent', '--show-error', '--http2', '--max-time', '60', '--write-out', '\n%{http_version} %{http_code}', ...body, request.url], { cwd: repositoryRoot, env: process.env, timeoutMs: 90_000 });
  const lastBreak = run.stdout.lastIndexOf('\n');
  const [version = '', status = '0'] = run.stdout.slice(lastBreak + 1).split(' ');
  return { exitCode: run.exitCode, stderr: run.stderr, version: version === '1.1' ? 'HTTP/1.1' : `HTTP/${version}`, status: Number(status), body: run.stdout.slice(0, Math.max(lastBreak, 0)) };
}

/**
 * Opens a WebSocket on `path` as a browser does (the development server's hot reload) and answers the status line the
 * server sent back: `HTTP/1.1 101 Switching Protocols` once the server took the upgrade.
 */
export function webSocketStatusLine(baseUrl: string, path: string): Promise<string> {
  const { hostname, port, host } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    socket.setTimeout(60_000, () => socket.destroy(new Error(`no answer to the WebSocket upgrade of ${path} in 60 s`)));
    socket.once('connect', () =>
      socket.write(
        [`GET ${path} HTTP/1.1`, `Host: ${host}`, `Origin: ${baseUrl}`, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`, '', ''].join('\r\n'),
      ),
    );
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      answer += chunk;
      if (answer.includes('\r\n')) {
        resolve(answer.slice(0, answer.indexOf('\r\n')));
        socket.destroy();
      }
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(answer === '' ? '(closed without an answer)' : answer.split('\r\n')[0]!));
  });
}

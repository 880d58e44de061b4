import { spawn } from 'node:child_process';
import net from 'node:net';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';

export interface ExampleRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an example's command line from the repository's root, with `input` on its standard input. */
export function runExample(commandLine: readonly string[], env: NodeJS.ProcessEnv, input = '', timeoutMs = 60_000): Promise<ExampleRun> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = commandLine;
    const child = spawn(program!, args, { cwd: repositoryRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
    socket.once('close', () => socket.destroy());
    socket.once('connect', () => socket.end());
  });
}

/** The receiver could not listen: another process took the free port between its choice and the receiver's bind. */
export class ReceiverPortTaken extends Error {}

const PORT_IN_USE = /address already in use|EADDRINUSE/i;
/** How long a receiver must stay up after its port first answers: a port another process holds answers too. */
const SETTLE_MS = 300;

/**
 * Starts an example's notification receiver and waits until its port accepts connections (a JVM takes seconds) and
 * the receiver is still running a moment later (so the answer was its own).
 */
export async function startExampleReceiver(commandLine: readonly string[], port: number, env: NodeJS.ProcessEnv) {
  const [program, ...args] = commandLine;
  // Its own process group: `go run` starts the compiled program as a child, which must stop with it.
  const child = spawn(program!, args, { cwd: repositoryRoot, env: { ...env, NOTIFY_PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const deadline = Date.now() + 60_000;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const failed = () => {
    stop();
    const message = `the receiver ${commandLine.join(' ')} did not listen on ${port}:\n${output}`;
    return PORT_IN_USE.test(output) ? new ReceiverPortTaken(message) : new Error(message);
  };
  for (;;) {
    if (exited() || Date.now() > deadline) throw failed();
    if (await accepts(port)) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      if (exited()) throw failed();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}/notify`,
    output: () => output,
    stop,
  };
}

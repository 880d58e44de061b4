import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

/**
 * wrk (Debian's package, written in C) as the load generator: the HTTP counterpart of pgbench's own client. autocannon,
 * in this Node.js process, cost 45-50 µs of CPU per request on the 2 cores the servers and PostgreSQL share, a fifth
 * of what a submit costs all of them together, while pgbench's client costs its inserts a few µs each: the ratio of
 * the two then measured the clients as much as the service. Each request body is one line of a file the script reads
 * before the load starts; a submit body is sent once (a file longer than any run), queries cycle through theirs.
 */

const SCRIPT = String.raw`
-- failures, samples and wrapped are globals: done() reads them from each thread's state (thread:get reads globals)
local bodies, count, nextBody = {}, 0, 1
local threads = {}
failures, samples, wrapped = 0, {}, 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local file = assert(io.open(args[1], "r"))
  for line in file:lines() do
    count = count + 1
    bodies[count] = line
  end
  file:close()
  io.write("ready\n")
  io.flush()
end

function request()
  if nextBody > count then
    nextBody = 1
    wrapped = wrapped + 1
  end
  local body = bodies[nextBody]
  nextBody = nextBody + 1
  return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
  if status < 200 or status > 299 or not string.find(body, '"code":0[,}]') then
    failures = failures + 1
    if #samples < 5 then samples[#samples + 1] = "HTTP " .. status .. " " .. string.sub(body, 1, 300) end
  end
end

function done(summary, latency, requests)
  local failed, wraps = 0, 0
  for _, thread in ipairs(threads) do
    failed = failed + thread:get("failures")
    wraps = wraps + thread:get("wrapped")
    for _, sample in ipairs(thread:get("samples")) do io.write("sample ", (string.gsub(sample, "\n", " ")), "\n") end
  end
  local e = summary.errors
  io.write(string.format("result %d %d %d %d %d %d %d %d %d %d\n", summary.requests, summary.duration, latency:percentile(50),
    latency:percentile(99), failed, e.connect, e.read, e.write, e.timeout, wraps))
end
`;

export interface WrkResult {
  requests: number;
  rps: number;
  /** Latency percentiles, ms to 0.1. */
  p50: number;
  p99: number;
  /** Responses that were not HTTP 2xx with code 0. */
  failures: number;
  /** Connect, read and write errors and timeouts. */
  socketErrors: number;
  samples: string[];
  /** Times the script ran out of bodies and began again (a submit body sent twice is a replay). */
  wrapped: number;
}

export interface WrkRun {
  url: string;
  connections: number;
  seconds: number;
  timeoutSeconds: number;
  bodies: readonly string[];
  /** Called when the bodies are loaded and the load begins, with wrk's pid. */
  onLoadStart?: (pid: number) => void;
}

export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/** wrk's `result` line: requests, duration (µs), p50 and p99 (µs), failures, connect/read/write errors, timeouts, wraps. */
export function parseWrkResult(line: string, samples: string[]): WrkResult {
  const fields = line.trim().split(/\s+/);
  if (fields[0] !== 'result' || fields.length !== 11) throw new Error(`wrk printed no result line: ${line}`);
  const [requests, durationUs, p50Us, p99Us, failures, connect, read, write, timeout, wrapped] = fields.slice(1).map(Number) as number[];
  if (![requests, durationUs, p50Us, p99Us].every((value) => Number.isFinite(value!))) throw new Error(`wrk's result line is not numbers: ${line}`);
  return {
    requests: requests!,
    rps: durationUs! > 0 ? (requests! * 1e6) / durationUs! : 0,
    p50: Math.round(p50Us! / 100) / 10,
    p99: Math.round(p99Us! / 100) / 10,
    failures: failures!,
    socketErrors: connect! + read! + write! + timeout!,
    samples,
    wrapped: wrapped!,
  };
}

/** One wrk run with one thread (as pgbench's default), each request's body the next line of `bodies`. */
export async function runWrk(run: WrkRun): Promise<WrkResult> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-wrk-'));
  try {
    const scriptPath = path.join(folder, 'bodies.lua');
    const bodiesPath = path.join(folder, 'bodies.txt');
    writeFileSync(scriptPath, SCRIPT);
    if (run.bodies.some((body) => body.includes('\n'))) throw new Error('a request body holds a line break');
    writeFileSync(bodiesPath, `${run.bodies.join('\n')}\n`);
    const args = ['-t1', `-c${run.connections}`, `-d${run.seconds}s`, `--timeout`, `${run.timeoutSeconds}s`, '-s', scriptPath, run.url, '--', bodiesPath];
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const samples: string[] = [];
    let resultLine: string | undefined;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'ready') run.onLoadStart?.(child.pid!);
      else if (line.startsWith('sample ')) samples.push(line.slice('sample '.length));
      else if (line.startsWith('result ')) resultLine = line;
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0 || !resultLine) throw new Error(`wrk exited with ${code}: ${stderr.trim() || 'no result line'}`);
    return parseWrkResult(resultLine, samples);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

import path from 'node:path';

/** The .cpuprofile JSON that `node --cpu-prof` writes (V8's Profiler.Profile). */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface ProfileEntry {
  name: string;
  where: string;
  us: number;
}

export interface ProfileSummary {
  /** Sampled time in the window, idle included (µs). */
  totalUs: number;
  idleUs: number;
  /** Self time by function (name + script + line), busiest first. */
  functions: ProfileEntry[];
  /** Self time by package / node internal area / project file. */
  modules: ProfileEntry[];
  /** Inclusive (self + callees, synchronous only) time of the project's own functions. */
  projectInclusive: ProfileEntry[];
  samplesInWindow: number;
  windowApplied: boolean;
}

const IDLE = '(idle)';

function shortUrl(url: string, root: string): string {
  let text = url.startsWith('file://') ? url.slice('file://'.length) : url;
  if (text.startsWith(root + path.sep)) text = text.slice(root.length + 1);
  const modules = text.lastIndexOf('node_modules/');
  if (modules >= 0) text = text.slice(modules + 'node_modules/'.length);
  return text;
}

/** Which area a script belongs to: a package (next split by compiled module), a node internal area, or a project file. */
function moduleOf(url: string, functionName: string, root: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native / V8 builtins)';
  if (url.startsWith('node:')) {
    const parts = url.slice('node:'.length).split('/');
    return `node:${parts.slice(0, parts[0] === 'internal' ? 2 : 1).join('/')}`;
  }
  const text = url.startsWith('file://') ? url.slice('file://'.length) : url;
  const modules = text.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = text.slice(modules + 'node_modules/'.length).split('/');
    const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    if (name === 'next' && parts[1] === 'dist') {
      return parts[2] === 'compiled' ? `next (compiled/${parts[3]})` : `next (dist/${parts[2]})`;
    }
    return name;
  }
  return shortUrl(url, root);
}

function isProjectCode(url: string, root: string): boolean {
  const text = url.startsWith('file://') ? url.slice('file://'.length) : url;
  return text.startsWith(root + path.sep) && !text.includes('node_modules/') && !text.includes(`${path.sep}.next${path.sep}`);
}

function top(map: Map<string, ProfileEntry>, count: number): ProfileEntry[] {
  return [...map.values()].sort((a, b) => b.us - a.us).slice(0, count);
}

/**
 * Aggregates self time (samples + timeDeltas; hitCount when the profile has no samples). With a window
 * (microseconds on the monotonic clock, like process.hrtime), only samples taken inside it count.
 */
export function summariseProfile(
  profile: CpuProfile,
  options: { root: string; window?: { startUs: number; endUs: number }; top?: number },
): ProfileSummary {
  const count = options.top ?? 15;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const selfByNode = new Map<number, number>();
  let samplesInWindow = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let windowApplied = false;
  if (samples.length > 0 && deltas.length === samples.length) {
    const window = options.window;
    windowApplied = Boolean(window && window.startUs >= profile.startTime && window.startUs < profile.endTime);
    let at = profile.startTime;
    for (let i = 0; i < samples.length; i += 1) {
      at += deltas[i]!;
      if (windowApplied && (at < window!.startUs || at > window!.endUs)) continue;
      const interval = deltas[i + 1] ?? 0;
      samplesInWindow += 1;
      selfByNode.set(samples[i]!, (selfByNode.get(samples[i]!) ?? 0) + interval);
    }
  } else {
    const perHit = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
    const span = profile.endTime - profile.startTime;
    for (const node of profile.nodes) if (node.hitCount) selfByNode.set(node.id, (node.hitCount / Math.max(perHit, 1)) * span);
  }

  const functions = new Map<string, ProfileEntry>();
  const modules = new Map<string, ProfileEntry>();
  const inclusive = new Map<string, ProfileEntry>();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfByNode) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    totalUs += us;
    if (name === IDLE) {
      idleUs += us;
      continue;
    }
    const where = url ? `${shortUrl(url, options.root)}:${lineNumber + 1}` : '';
    const key = `${name}\u0000${where}`;
    const entry = functions.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    const area = moduleOf(url, name, options.root);
    const moduleEntry = modules.get(area) ?? { name: area, where: '', us: 0 };
    moduleEntry.us += us;
    modules.set(area, moduleEntry);

    // Inclusive time of the project's functions on this stack (each function once per stack).
    const seen = new Set<string>();
    for (let walk: number | undefined = id; walk !== undefined; walk = parent.get(walk)) {
      const frame = byId.get(walk)!.callFrame;
      if (!isProjectCode(frame.url, options.root)) continue;
      const frameWhere = `${shortUrl(frame.url, options.root)}:${frame.lineNumber + 1}`;
      const frameKey = `${frame.functionName}\u0000${frameWhere}`;
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      const frameEntry = inclusive.get(frameKey) ?? { name: frame.functionName || '(anonymous)', where: frameWhere, us: 0 };
      frameEntry.us += us;
      inclusive.set(frameKey, frameEntry);
    }
  }
  return {
    totalUs,
    idleUs,
    functions: top(functions, count),
    modules: top(modules, count),
    projectInclusive: top(inclusive, count),
    samplesInWindow,
    windowApplied,
  };
}

export function formatSummary(title: string, summary: ProfileSummary): string {
  const busy = summary.totalUs - summary.idleUs;
  const pct = (us: number) => `${((100 * us) / Math.max(busy, 1)).toFixed(1).padStart(5)}%`;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
  const lines = [
    `${title}: ${(summary.totalUs / 1e6).toFixed(2)} s sampled${summary.windowApplied ? ' during the load window' : ' (whole process life)'}, ` +
      `${(busy / 1e6).toFixed(2)} s on CPU (${((100 * busy) / Math.max(summary.totalUs, 1)).toFixed(0)}% of one core), ` +
      `${summary.samplesInWindow} samples; percentages are of on-CPU time`,
    `  top self time by function:`,
    ...summary.functions.map((entry, i) => `  ${String(i + 1).padStart(2)}. ${pct(entry.us)} ${ms(entry.us)}  ${entry.name}  ${entry.where}`),
    `  self time by package / area:`,
    ...summary.modules.map((entry) => `      ${pct(entry.us)} ${ms(entry.us)}  ${entry.name}`),
    `  inclusive time of project functions (synchronous parts):`,
    ...summary.projectInclusive.map((entry) => `      ${pct(entry.us)} ${ms(entry.us)}  ${entry.name}  ${entry.where}`),
  ];
  return lines.join('\n');
}

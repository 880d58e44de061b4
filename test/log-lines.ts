/** A line a process wrote, read as a log collector reads it: the entry, or undefined when it is not a JSON log entry. */
export function logEntry(text: string): { level: number; msg: string; [field: string]: unknown } | undefined {
  try {
    const entry: unknown = JSON.parse(text);
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
    const { level, msg } = entry as Record<string, unknown>;
    return typeof level === 'number' && typeof msg === 'string' ? (entry as { level: number; msg: string }) : undefined;
  } catch {
    return undefined;
  }
}

/** The lines of a process's output (stdout and stderr together) that are not JSON log entries. */
export function linesNotLogEntries(output: string): string[] {
  return output.split('\n').filter((line) => line !== '' && !logEntry(line));
}

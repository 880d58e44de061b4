import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { prometheusBinary } from '../../test/prometheus-binaries';

const run = promisify(execFile);
const HERE = path.dirname(new URL(import.meta.url).pathname);

describe('the alert rules (ops/prometheus/alerts.yml)', () => {
  it('are valid rules for promtool', async () => {
    const { stdout } = await run(prometheusBinary('promtool'), ['check', 'rules', 'alerts.yml'], { cwd: HERE });
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('fire as their unit tests expect (promtool test rules alerts.test.yml)', async () => {
    const answer = await run(prometheusBinary('promtool'), ['test', 'rules', 'alerts.test.yml'], { cwd: HERE }).catch((error: { stdout: string; stderr: string }) => error);
    expect(`${answer.stdout}${answer.stderr}`).toMatch(/SUCCESS/);
    expect(`${answer.stdout}${answer.stderr}`).not.toMatch(/FAILED/);
  });

  it('every alert of alerts.yml has a unit test', async () => {
    const { readFile } = await import('node:fs/promises');
    const rules = await readFile(path.join(HERE, 'alerts.yml'), 'utf8');
    const tests = await readFile(path.join(HERE, 'alerts.test.yml'), 'utf8');
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((match) => match[1]!);
    expect(alerts.length).toBeGreaterThan(8);
    for (const alert of alerts) expect(tests, alert).toContain(`alertname: ${alert}`);
  });
});

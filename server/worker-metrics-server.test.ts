import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runJobExclusively } from '../lib/jobs/periodic-job';
import { systemClock } from '../lib/clock';
import { getDb } from '../lib/db/client';
import { sampleValue } from '../test/metrics-scrape';
import { startWorkerMetricsServer, workerMetricsSettings } from './worker-metrics-server';

const env = (variables: Record<string, string>) => variables as NodeJS.ProcessEnv;

describe("the worker's metrics on METRICS_PORT", () => {
  it('refuses to start without a token to guard them, naming the setting, and refuses a port that is not one', () => {
    expect(() => workerMetricsSettings(env({ METRICS_PORT: '9464' }))).toThrow(/METRICS_TOKEN: METRICS_PORT is set: set METRICS_TOKEN \(or HEALTH_DETAILS_TOKEN\)/);
    expect(() => workerMetricsSettings(env({ METRICS_PORT: 'nine', METRICS_TOKEN: randomBytes(24).toString('base64url') }))).toThrow(/METRICS_PORT: must be a port number/);
    expect(workerMetricsSettings(env({}))).toBeUndefined();
    expect(workerMetricsSettings(env({ METRICS_PORT: '9464', HEALTH_DETAILS_TOKEN: randomBytes(24).toString('base64url') }))).toEqual({ port: 9464, host: '127.0.0.1' });
  });

  it('answers Prometheus text to the bearer of METRICS_TOKEN only, with the jobs this process ran', async () => {
    const token = randomBytes(24).toString('base64url');
    process.env.METRICS_TOKEN = token;
    const server = await startWorkerMetricsServer({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${server.port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer not-the-token-not-the-token-not-the' } })).status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${server.port}/other`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
      await runJobExclusively({ name: 'worker-metrics-job', intervalMs: 1000, run: async () => undefined }, { db: getDb(), clock: systemClock, log: () => undefined });
      const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(sampleValue(text, 'payment_job_runs_total', { job: 'worker-metrics-job', outcome: 'ok' })).toBe(1);
      expect(sampleValue(text, 'payment_metrics_database_up')).toBe(1);
    } finally {
      delete process.env.METRICS_TOKEN;
      await server.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { combinePgbenchRounds, combineRounds, cpuCeiling, median, type RunFigures } from './rounds';

function round(rps: number, extra: Partial<RunFigures> = {}): RunFigures & { target: string } {
  return { target: 'ours', rps, p50: rps / 1000, p99: rps / 100, responses: rps * 5, errors: 0, errorSamples: [], ...extra };
}

describe('median', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones of an even count, in any order', () => {
    expect(median([7, 1, 4])).toBe(4);
    expect(median([10, 2, 8, 4])).toBe(6);
    expect(median([5])).toBe(5);
    expect(median([])).toBeUndefined();
  });
});

describe('combineRounds', () => {
  it('judges a case on its median round: one slow round (the shared machine) does not move the figure', () => {
    const combined = combineRounds([round(6200), round(3800), round(5900)]);
    expect(combined.rps).toBe(5900);
    expect(combined.p99).toBe(59);
    expect(combined.target).toBe('ours');
  });

  it('counts every response and every error of every round: an error in one round still fails the case', () => {
    const combined = combineRounds([round(5000), round(5000, { errors: 2, errorSamples: ['HTTP 500'] }), round(5000)]);
    expect(combined.responses).toBe(75_000);
    expect(combined.errors).toBe(2);
    expect(combined.errorSamples).toEqual(['HTTP 500']);
  });

  it('takes each CPU figure as the median of the rounds that measured it', () => {
    const combined = combineRounds([
      round(1, { cpu: { serverUs: 90, databaseUs: 80, clientUs: 40, machineBusy: 0.7 } }),
      round(2, { cpu: { serverUs: 130, clientUs: 60, machineBusy: 0.8 } }),
      round(3, { cpu: { serverUs: 100, databaseUs: 100, clientUs: 50, machineBusy: 0.9 } }),
    ]);
    expect(combined.cpu).toEqual({ serverUs: 100, databaseUs: 90, clientUs: 50, machineBusy: 0.8, otherBusy: undefined });
  });

  it('refuses to make a result of no rounds', () => {
    expect(() => combineRounds([])).toThrow(RangeError);
  });
});

describe('combinePgbenchRounds', () => {
  it('takes the median rate and latency, and the fewest clients any round could open', () => {
    expect(
      combinePgbenchRounds([
        { tps: 21_000, clients: 70, latencyMs: 1.5 },
        { tps: 15_000, clients: 68, latencyMs: 2.1 },
        { tps: 18_000, clients: 70, latencyMs: 1.8 },
      ]),
    ).toEqual({ tps: 18_000, clients: 68, latencyMs: 1.8 });
  });
});

describe('cpuCeiling', () => {
  it('is what the cores could answer if every request cost the server, PostgreSQL and the client exactly what it did', () => {
    expect(cpuCeiling({ serverUs: 150, databaseUs: 100, clientUs: 75 }, 2)).toBeCloseTo(2_000_000 / 325);
    expect(cpuCeiling({ serverUs: 40, databaseUs: 10, clientUs: 50 }, 1)).toBe(10_000);
  });

  it('is unknown when a part was not measured', () => {
    expect(cpuCeiling(undefined, 2)).toBeUndefined();
    expect(cpuCeiling({ serverUs: 150, clientUs: 75 }, 2)).toBeUndefined();
    expect(cpuCeiling({ databaseUs: 100, clientUs: 75 }, 2)).toBeUndefined();
  });
});

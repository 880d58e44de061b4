import { UsageError } from './usage-error';

/**
 * A non-negative decimal option (`--per-second 30`, `--minutes 0.5`), refused naming the option and the range it
 * takes; `fallback` when it is absent. `aboveZero` refuses 0 too (a duration, a rate that must make something).
 */
export function decimalOption(value: string | undefined, spec: { name: string; fallback: number; max: number; aboveZero?: boolean; usage: string }): number {
  if (value === undefined) return spec.fallback;
  const parsed = Number(value);
  const low = spec.aboveZero ? parsed <= 0 : parsed < 0;
  if (!/^\d+(\.\d+)?$/.test(value) || low || parsed > spec.max) {
    throw new UsageError(`--${spec.name} must be a number ${spec.aboveZero ? 'above 0' : 'from 0'}, at most ${spec.max} (got ${value})`, spec.usage);
  }
  return parsed;
}

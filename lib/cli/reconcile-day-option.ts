import type { ParsedArgs } from './args';

/** The --date of the reconcile commands: a real calendar day as yyyy-MM-dd. */
export function validDay(args: ParsedArgs): string {
  const day = args.required('date');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
    args.fail(`option --date must be a day as yyyy-MM-dd, got ${JSON.stringify(day)}`);
  }
  return day;
}

/** One page of a list the console shows; pages are numbered from 1. */
export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageCount: number;
}

/** A page number from the query string: 1 unless a positive integer (bounded, so no absurd OFFSET). */
export function pageNumber(text: string | undefined): number {
  const page = Number(text);
  return Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

export function pageOf<T>(rows: T[], total: number, page: number, pageSize: number): Page<T> {
  return { rows, total, page, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

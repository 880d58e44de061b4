import { parseMinorUnits } from '../money/decimal-amount';

/** One row of an upstream's record of a day, as every channel's bill reader hands it to the matching. */
export interface UpstreamRow {
  kind: 'trade' | 'refund';
  /** Our order number as the upstream echoes it (out_trade_no), or a chain transfer's transaction id and event index (txid:index). */
  reference: string;
  /** The upstream's own trade number (or transaction hash). */
  upstreamReference: string;
  /** A refund's own number (out_request_no / out_refund_no); '' for a trade. */
  refundReference: string;
  /** A chain transfer's receiving address. */
  account?: string;
  /** Positive: a refund's amount is what was refunded. */
  amountMinor: bigint;
  /** 'success', or the upstream's word for a trade that did not stand. */
  status: string;
  occurredAt?: Date;
}

/** A bill that cannot be read as documented: the run fails rather than report differences that are not there. */
export class BillFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BillFormatError';
  }
}

/**
 * The rows of a bill file, a BillFormatError renamed after the file (`file: what was wrong`), so that a failed run
 * says which file failed which check.
 */
export async function* rowsOfFile(file: string, rows: AsyncIterable<UpstreamRow>): AsyncGenerator<UpstreamRow> {
  try {
    yield* rows;
  } catch (error) {
    if (error instanceof BillFormatError) throw new BillFormatError(`${file}: ${error.message}`);
    throw error;
  }
}

/** A bill amount in yuan ("12.50", "-12.50", "0.5") as positive minor units; the field is named when it is not one. */
export function billAmount(text: string | undefined, field: string, line: number): bigint {
  const unsigned = (text ?? '').trim().replace(/^-/, '');
  const minor = parseMinorUnits(unsigned);
  if (minor === undefined) throw new BillFormatError(`line ${line}: ${field} ${JSON.stringify((text ?? '').slice(0, 20))} is not an amount in yuan`);
  return minor;
}

/** Where each named column is in a bill's header line, by its title; a title missing is named. */
export function columnIndex<Key extends string>(fields: readonly string[], columns: Readonly<Record<Key, string>>): Record<Key, number> {
  const index = {} as Record<Key, number>;
  for (const [key, title] of Object.entries(columns) as [Key, string][]) {
    const at = fields.indexOf(title);
    if (at < 0) throw new BillFormatError(`the bill's header has no column ${title}`);
    index[key] = at;
  }
  return index;
}

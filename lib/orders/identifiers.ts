import { randomFillSync, randomInt } from 'node:crypto';

/** The last second's stamp, kept: a busy second asks for it hundreds of times. */
let stampCache = { second: Number.NaN, stamp: '' };

/** UTC time to the second as YYYYMMDDHHmmss. */
function secondStamp(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (stampCache.second !== second) stampCache = { second, stamp: now.toISOString().replace(/[-:T]/g, '').slice(0, 14) };
  return stampCache.stamp;
}

/** Platform order number: the channel's letter, UTC time to the second, 8 random digits (readable, sortable, not a secret). */
export function newOrderNo(channelPrefix: string, now: Date): string {
  return `${channelPrefix}${secondStamp(now)}${randomInt(0, 100_000_000).toString().padStart(8, '0')}`;
}

const PAY_TOKEN_BYTES = 32;
/**
 * Random bytes for 128 tokens at a time from the CSPRNG (one call instead of one per order, as Node's own
 * randomUUID does); each byte is handed out once.
 */
const tokenBytes = Buffer.alloc(PAY_TOKEN_BYTES * 128);
let tokenOffset = tokenBytes.length;

/** The payUrl token: 256 random bits, so checkout pages cannot be enumerated. */
export function newPayToken(): string {
  if (tokenOffset === tokenBytes.length) {
    randomFillSync(tokenBytes);
    tokenOffset = 0;
  }
  const token = tokenBytes.toString('base64url', tokenOffset, tokenOffset + PAY_TOKEN_BYTES);
  tokenOffset += PAY_TOKEN_BYTES;
  return token;
}

export function publicBaseUrl(): string {
  const configured = process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
  return configured.replace(/\/+$/, '');
}

export function payUrlFor(payToken: string): string {
  return `${publicBaseUrl()}/pay/${payToken}`;
}

/** The QR image of an order's upstream QR content, by the same unguessable token. */
export function qrCodeUrlFor(payToken: string): string {
  return `${publicBaseUrl()}/qr/${payToken}.png`;
}

export function orderTtlMinutes(): number {
  const configured = Number(process.env.ORDER_TTL_MINUTES ?? 30);
  return Number.isFinite(configured) && configured > 0 ? configured : 30;
}

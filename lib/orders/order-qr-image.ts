import QRCode from 'qrcode';
import type { Database } from '../db/client';
import { findOrderWithUpstream } from './find-order';
import { effectiveStatus } from './order-status';

export type OrderQrImage = { status: 200; png: Uint8Array } | { status: 404 | 410; message: string };

/**
 * The image behind an order's qrCodeUrl (`/qr/<payToken>.png`): the upstream's QR content as a PNG, only while the
 * order can still be paid (410 after), 404 for anything unknown.
 */
export async function orderQrImage(db: Database, fileName: string, now = new Date()): Promise<OrderQrImage> {
  const match = /^(.+)\.png$/.exec(fileName);
  const row = match ? await findOrderWithUpstream(db, match[1]!) : undefined;
  if (!row || !row.upstream.qrContent) return { status: 404, message: 'not found' };
  if (effectiveStatus(row.order, now) !== 'pending') return { status: 410, message: 'this order can no longer be paid' };
  const png = await QRCode.toBuffer(row.upstream.qrContent, { type: 'png', margin: 1, width: 320, errorCorrectionLevel: 'M' });
  return { status: 200, png: new Uint8Array(png) };
}

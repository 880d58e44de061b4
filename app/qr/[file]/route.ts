import { getDb } from '@/lib/db/client';
import { orderQrImage } from '@/lib/orders/order-qr-image';

export const dynamic = 'force-dynamic';

/** GET /qr/<payToken>.png: the QR image of the order's upstream QR content (an order's qrCodeUrl). */
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const image = await orderQrImage(getDb(), (await params).file);
  if (image.status !== 200) {
    return new Response(image.message, { status: image.status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  }
  return new Response(image.png as BodyInit, { headers: { 'content-type': 'image/png', 'cache-control': 'private, no-store' } });
}

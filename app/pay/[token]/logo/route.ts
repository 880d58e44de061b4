import { findCheckoutLogo } from '@/lib/checkout/checkout-merchant';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

/**
 * The merchant's logo on its checkout, from this origin (the payer's browser calls no other site). The type is the
 * one read from the bytes at upload; nosniff and a no-script policy keep an image an image. The URL carries the
 * logo's version, so it may be cached for long.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  const logo = await findCheckoutLogo(getDb(), (await params).token);
  if (!logo) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      'content-type': logo.type,
      'cache-control': 'public, max-age=86400, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    },
  });
}

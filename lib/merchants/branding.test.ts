import { describe, expect, it } from 'vitest';
import { alipayAdapter } from '../channels/alipay/adapter';
import { findCheckoutLogo, findCheckoutOrder } from '../checkout/checkout-merchant';
import { addSandboxCredential } from '../cli/credential-add-command';
import { getDb } from '../db/client';
import { createDirectOrder } from '../orders/create-direct-order';
import { aMerchant } from '../../test/factories';
import { BrandingRefused, findMerchantBranding, MAX_LOGO_BYTES, parseDisplayName, saveMerchantBranding, sniffLogoType } from './branding';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const WEBP = Uint8Array.from([0x52, 0x49, 0x46, 0x46, 1, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe('merchant branding', () => {
  it('reads the image type from the bytes, and takes no SVG or other file', () => {
    expect(sniffLogoType(PNG)).toBe('image/png');
    expect(sniffLogoType(JPEG)).toBe('image/jpeg');
    expect(sniffLogoType(WEBP)).toBe('image/webp');
    expect(sniffLogoType(SVG)).toBeUndefined();
  });

  it('refuses a logo that is not an image or is too large, naming the field', async () => {
    const merchant = await aMerchant();
    await expect(saveMerchantBranding(getDb(), merchant.id, { displayName: 'Shop', logo: SVG })).rejects.toMatchObject({ field: 'logo', reason: 'logoType' });
    const huge = new Uint8Array(MAX_LOGO_BYTES + 1);
    huge.set(PNG);
    await expect(saveMerchantBranding(getDb(), merchant.id, { displayName: 'Shop', logo: huge })).rejects.toBeInstanceOf(BrandingRefused);
  });

  it('keeps display names readable: trimmed, at most 60 characters, no control characters; empty means the merchant name', () => {
    expect(parseDisplayName('  茶叶小店 ')).toBe('茶叶小店');
    expect(parseDisplayName('   ')).toBeNull();
    expect(() => parseDisplayName('x'.repeat(61))).toThrow(BrandingRefused);
    expect(() => parseDisplayName('Shop\u202Egnp.exe')).toThrow(BrandingRefused);
  });

  it('stores the name and logo, versions each logo change, and removes the logo on request', async () => {
    const merchant = await aMerchant();
    expect(await findMerchantBranding(getDb(), merchant.id)).toEqual({ displayName: null, hasLogo: false, logoVersion: 0 });
    await saveMerchantBranding(getDb(), merchant.id, { displayName: 'Tea House', logo: PNG });
    expect(await findMerchantBranding(getDb(), merchant.id)).toEqual({ displayName: 'Tea House', hasLogo: true, logoVersion: 1 });
    await saveMerchantBranding(getDb(), merchant.id, { displayName: 'Tea House' });
    expect((await findMerchantBranding(getDb(), merchant.id)).logoVersion).toBe(1);
    await saveMerchantBranding(getDb(), merchant.id, { displayName: 'Tea House', logo: JPEG });
    expect(await findMerchantBranding(getDb(), merchant.id)).toEqual({ displayName: 'Tea House', hasLogo: true, logoVersion: 2 });
    await saveMerchantBranding(getDb(), merchant.id, { displayName: '', removeLogo: true });
    expect(await findMerchantBranding(getDb(), merchant.id)).toEqual({ displayName: null, hasLogo: false, logoVersion: 3 });
  });

  it('is what the checkout of the merchant’s orders shows', async () => {
    const merchant = await aMerchant();
    process.env.PUBLIC_BASE_URL ??= 'http://shop.test';
    await addSandboxCredential(getDb(), { appId: merchant.appId, channel: 'ALIPAY', approve: true, enable: true, actor: 'test' });
    const { order } = await createDirectOrder(
      getDb(),
      merchant.id,
      alipayAdapter,
      { merchantOrderNo: 'BRAND-1', payMethod: 'web', amountMinor: 100n, notifyUrl: 'https://m.example/n', productName: 'Tea' },
      { clientIp: '127.0.0.1' },
    );
    const token = order.payToken;
    expect((await findCheckoutOrder(getDb(), token))!.merchant).toEqual({ name: merchant.name, logoPath: null });
    await saveMerchantBranding(getDb(), merchant.id, { displayName: 'Tea House', logo: PNG });
    expect((await findCheckoutOrder(getDb(), token))!.merchant).toEqual({ name: 'Tea House', logoPath: `/pay/${token}/logo?v=1` });
    expect(await findCheckoutLogo(getDb(), token)).toEqual({ type: 'image/png', bytes: Buffer.from(PNG) });
  });
});

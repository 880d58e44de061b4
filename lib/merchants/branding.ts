import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { merchantBranding } from '../db/schema';

export const MAX_LOGO_BYTES = 100 * 1024;
export const MAX_DISPLAY_NAME_CHARS = 60;

/** A branding change the merchant asked for that cannot be stored; `field` names the form field. */
export class BrandingRefused extends Error {
  constructor(
    readonly field: 'displayName' | 'logo',
    readonly reason: 'displayNameLength' | 'displayNameCharacters' | 'logoSize' | 'logoType',
  ) {
    super(`${field}: ${reason}`);
  }
}

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp';

/**
 * The image type read from the file's own first bytes, never from its name or the browser's claim. Only raster
 * formats: an SVG can carry script, and the logo is served from the checkout's own origin.
 */
export function sniffLogoType(bytes: Uint8Array): LogoType | undefined {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return undefined;
}

/** The display name as stored: trimmed, 1–60 characters, no control characters; empty means "use the merchant's name". */
export function parseDisplayName(input: string): string | null {
  const name = input.normalize('NFC').trim();
  if (name === '') return null;
  if (/[\p{Cc}\p{Cf}]/u.test(name)) throw new BrandingRefused('displayName', 'displayNameCharacters');
  if (Array.from(name).length > MAX_DISPLAY_NAME_CHARS) throw new BrandingRefused('displayName', 'displayNameLength');
  return name;
}

export function parseLogo(bytes: Uint8Array): { type: LogoType; bytes: Buffer } {
  if (bytes.length === 0 || bytes.length > MAX_LOGO_BYTES) throw new BrandingRefused('logo', 'logoSize');
  const type = sniffLogoType(bytes);
  if (!type) throw new BrandingRefused('logo', 'logoType');
  return { type, bytes: Buffer.from(bytes) };
}

export interface MerchantBranding {
  displayName: string | null;
  hasLogo: boolean;
  logoVersion: number;
}

export async function findMerchantBranding(db: Database, merchantId: number): Promise<MerchantBranding> {
  const [row] = await db
    .select({ displayName: merchantBranding.displayName, logoType: merchantBranding.logoType, logoVersion: merchantBranding.logoVersion })
    .from(merchantBranding)
    .where(eq(merchantBranding.merchantId, merchantId))
    .limit(1);
  return { displayName: row?.displayName ?? null, hasLogo: !!row?.logoType, logoVersion: row?.logoVersion ?? 0 };
}

/**
 * Stores what the merchant's payers see: the display name always (null: the merchant's own name), the logo when a
 * new one is given or removed when asked; each logo change bumps its version (its URL), so no cache shows the old one.
 */
export async function saveMerchantBranding(
  db: Database,
  merchantId: number,
  change: { displayName: string; logo?: Uint8Array; removeLogo?: boolean },
  now = new Date(),
): Promise<void> {
  const displayName = parseDisplayName(change.displayName);
  const logo = change.logo && change.logo.length > 0 ? parseLogo(change.logo) : undefined;
  const logoChange = logo
    ? { logoType: logo.type, logoBytes: logo.bytes }
    : change.removeLogo
      ? { logoType: null, logoBytes: null }
      : {};
  const bump = logo || change.removeLogo ? { logoVersion: sql`${merchantBranding.logoVersion} + 1` } : {};
  await db
    .insert(merchantBranding)
    .values({ merchantId, displayName, ...logoChange, logoVersion: logo || change.removeLogo ? 1 : 0, updatedAt: now })
    .onConflictDoUpdate({ target: merchantBranding.merchantId, set: { displayName, ...logoChange, ...bump, updatedAt: now } });
}

import type { Locale } from './locales';

/**
 * One catalogue per area and language, in `messages/<locale>/<area>.json`. A page hands the client only the areas its
 * client components use (the checkout must stay light), so areas are loaded and picked by name. `domain` holds what
 * the domain's errors say (lib/errors/domain-message.ts), translated on the server by the transport that answers.
 */
export const MESSAGE_AREAS = ['common', 'checkout', 'portal', 'console', 'sandbox', 'domain'] as const;
export type MessageArea = (typeof MESSAGE_AREAS)[number];
export type Messages = Record<string, unknown>;

export async function loadMessages(locale: Locale, areas: readonly MessageArea[] = MESSAGE_AREAS): Promise<Messages> {
  const catalogues = await Promise.all(
    areas.map(async (area) => [area, (await import(`../../messages/${locale}/${area}.json`)).default as Messages] as const),
  );
  return Object.fromEntries(catalogues);
}

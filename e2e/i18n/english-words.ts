import type { Page } from '@playwright/test';

/**
 * What a Chinese reader of a page sees that is still English: every ASCII-only word of the visible text (and of the
 * aria-labels, titles, placeholders and alt texts of visible elements, and the options of visible lists), less what
 * is the same in every language. Kept short on purpose; each entry says why it is not English to translate.
 */
const SAME_IN_EVERY_LANGUAGE = new Set([
  // Networks, tokens and protocols: the names wallets and exchanges show in Chinese too.
  'USDT', 'TRON', 'Polygon', 'PoS', 'BNB', 'Ethereum', 'EVM', 'EIP',
  // The upstream gateway's own name, and the contract's credentials (the terms the merchant's integration uses).
  'YHT', 'AppID', 'AppSecret',
  // Technical terms Chinese documentation writes in Latin letters.
  'API', 'CSV', 'UTC', 'HMAC', 'JSON', 'HTTP', 'HTTPS', 'URL', 'ID', 'IP', 'QR', 'RSA', 'PEM', 'SDK', 'UTF', 'BOM', 'GET', 'POST', 'IANA',
  // A device's screen-lock PIN, which passkeys ask for ("PIN 码" on Chinese phones and in Windows Hello).
  'PIN',
  // The sandbox wallets stand in for these apps, and say so by name.
  'TronLink', 'MetaMask',
  // Block explorers linked from a paid order.
  'Tronscan', 'Etherscan', 'BscScan', 'PolygonScan',
  // File formats, a size unit and products named as such in Chinese (the logo's formats, "用 Excel 打开", "银行 App",
  // WeChat's own name of its QR product, "Native 支付"; the OpenAPI document; the example programs' languages).
  'PNG', 'JPEG', 'WebP', 'KB', 'KiB', 'Excel', 'App', 'Native', 'OpenAPI', 'PHP', 'Java', 'Python', 'Go', 'Node', 'TypeScript', 'curl',
  // TRON's public node service, named as such on the health page; the character set the signature sorts by.
  'TronGrid', 'ASCII',
  // The console names a chain by its key (链 POLYGON), as the CLI's --chain and the configuration do.
  'POLYGON',
  // The pool-share form's two keywords, typed into its fields as `admin pool set` takes them.
  'default', 'none',
  // Browsers and operating systems, as the account page's sessions name a device (Chinese pages name them so too).
  'Chrome', 'Firefox', 'Safari', 'Edge', 'Opera', 'Windows', 'Android', 'iOS', 'macOS', 'ChromeOS', 'Linux',
]);
/** Brand names of several words, removed before the text is split into words. */
const BRAND_PHRASES = ['BNB Smart Chain', 'Polygon PoS'];

/** A word that is a value rather than language: a code, an amount, an id, an address or hash fragment, an AppID. */
function isValue(word: string): boolean {
  return /\d/.test(word) || /^mch_/.test(word) || /^[A-Za-z]$/.test(word); // a single letter: an address's first, a monogram
}

export function isLeak(word: string): boolean {
  return !SAME_IN_EVERY_LANGUAGE.has(word) && !isValue(word);
}

/**
 * The words of the page a reader is shown, outside what is shown verbatim on purpose: code (`code`, `pre`, `kbd`,
 * `samp`: request bodies, field names, commands; what the user typed in a `textarea`), an element explicitly marked
 * as technical detail (`data-technical`, the raw error kept beside its description in the reader's language) and an
 * element marked as written in another language (`lang="en"`: the language switch names English in English), and a
 * value marked not to be translated (`translate="no"`: a merchant's own order number, as it sent it). URLs, e-mail addresses and
 * long tokens (addresses, hashes, order numbers) are values and are removed first; so are `data` strings the test itself
 * typed as a merchant (a merchant's own names are not the service's to translate).
 */
export async function englishWords(page: Page, merchantData: string[] = []): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const verbatim = 'code, pre, kbd, samp, textarea, script, style, noscript, [data-technical], [translate="no"], [lang]:not([lang|="zh"])';
    const out: string[] = [];
    const visible = (element: Element) => element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(verbatim)) continue;
      const shown = parent.closest('select') ?? parent;
      if (!visible(shown)) continue;
      out.push(node.textContent ?? '');
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
      if (element.closest(verbatim) || !visible(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value) out.push(value);
      }
    }
    out.push(document.title);
    return out;
  });
  const words: string[] = [];
  for (let text of texts) {
    for (const data of [...merchantData, ...BRAND_PHRASES]) text = text.split(data).join(' ');
    text = text
      .replace(/https?:\/\/\S+|weixin:\/\/\S+/g, ' ')
      .replace(/[\w.+*-]+@[\w-]+(\.[\w-]+)+/g, ' ') // e-mail addresses, masked ones too (san***@sandbox.com)
      .replace(/\b(Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[\w/+-]+/g, ' ') // IANA time zone ids
      .replace(/\b(0x)?[0-9A-Za-z_-]{20,}\b/g, ' ');
    // Whole runs of letters and digits: the letters after a digit ("87129fae" of an order number) are part of a value,
    // never a word of their own (isValue sets aside any run with a digit).
    for (const match of text.matchAll(/[A-Za-z0-9_]+/g)) words.push(match[0]);
  }
  return [...new Set(words.filter(isLeak))];
}

import { describe, expect, it } from 'vitest';
import { normaliseLocale, pickLocale, safeReturnPath } from './locales';

describe('pickLocale', () => {
  it('gives Chinese browsers zh-CN and everyone else English', () => {
    expect(pickLocale({ acceptLanguage: 'zh-CN,zh;q=0.9,en;q=0.8' })).toBe('zh-CN');
    expect(pickLocale({ acceptLanguage: 'zh-TW' })).toBe('zh-CN');
    expect(pickLocale({ acceptLanguage: 'en-US,en;q=0.9' })).toBe('en');
    expect(pickLocale({ acceptLanguage: 'fr-FR,de;q=0.8' })).toBe('en');
    expect(pickLocale({})).toBe('en');
  });

  it('follows the quality weights, not the order', () => {
    expect(pickLocale({ acceptLanguage: 'en;q=0.5,zh;q=0.9' })).toBe('zh-CN');
    expect(pickLocale({ acceptLanguage: 'fr,en;q=0.4,zh;q=0.3' })).toBe('en');
    expect(pickLocale({ acceptLanguage: 'zh;q=0,en' })).toBe('en');
  });

  it('lets a remembered choice beat the browser, and a link’s explicit choice beat both', () => {
    expect(pickLocale({ cookie: 'en', acceptLanguage: 'zh-CN' })).toBe('en');
    expect(pickLocale({ explicit: 'zh', cookie: 'en', acceptLanguage: 'en' })).toBe('zh-CN');
    expect(pickLocale({ explicit: 'klingon', cookie: 'zh-CN', acceptLanguage: 'en' })).toBe('zh-CN');
  });
});

describe('normaliseLocale', () => {
  it('reads every Chinese tag as zh-CN and ignores what we do not write', () => {
    expect(normaliseLocale('zh-Hans-CN')).toBe('zh-CN');
    expect(normaliseLocale('EN_gb')).toBe('en');
    expect(normaliseLocale('ja')).toBeUndefined();
    expect(normaliseLocale('')).toBeUndefined();
  });
});

describe('safeReturnPath', () => {
  it('keeps same-site paths and sends anything else home', () => {
    expect(safeReturnPath('/portal/orders?page=2')).toBe('/portal/orders?page=2');
    expect(safeReturnPath('//evil.example/x')).toBe('/');
    expect(safeReturnPath('https://evil.example/')).toBe('/');
    expect(safeReturnPath('/\\evil.example')).toBe('/');
    expect(safeReturnPath(undefined)).toBe('/');
  });

  it('refuses control characters and whitespace (a browser drops a tab: /\\t/evil is //evil) and paths that resolve elsewhere', () => {
    for (const path of ['/\t/evil.example', '/\n{"msg":"x"}\nx', '/\r/x', '/ /x', '/\u00a0/x', '/\u2028/x', '/\u0000', '/\u007f', '/\u0085', '/\ufeff/x', '/.//evil.example', '/a/..//evil.example']) {
      expect(safeReturnPath(path), JSON.stringify(path)).toBe('/');
    }
    expect(safeReturnPath('/portal/../pay/x?lang=en#top')).toBe('/pay/x?lang=en#top');
    expect(safeReturnPath('/支付')).toBe('/%E6%94%AF%E4%BB%98');
  });
});

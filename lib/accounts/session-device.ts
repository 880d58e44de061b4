/** A session's device as its owner recognises it: the browser and the operating system its user agent names. */
export interface SessionDevice {
  browser: string | undefined;
  system: string | undefined;
}

// Order matters: Edge, Opera and Samsung Internet also say Chrome; Chrome also says Safari; WeChat's browser says both.
const BROWSERS: Array<[RegExp, string]> = [
  [/\bMicroMessenger\//, 'WeChat'],
  [/\bAlipayClient\//, 'Alipay'],
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const firstMatch = (userAgent: string, patterns: Array<[RegExp, string]>) => patterns.find(([pattern]) => pattern.test(userAgent))?.[1];

export function sessionDeviceOf(userAgent: string): SessionDevice {
  return { browser: firstMatch(userAgent, BROWSERS), system: firstMatch(userAgent, SYSTEMS) };
}

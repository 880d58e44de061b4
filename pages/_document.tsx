import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Head, Html, Main, NextScript, default as Document, type DocumentProps } from 'next/document';
import { CHECKOUT_SCRIPT } from '@/components/checkout/checkout-script';

const stylesheets = new Map<string, string>();

/** A built stylesheet's text, read once per process (it does not change under a running production build). */
function builtStylesheet(file: string): string {
  let text = stylesheets.get(file);
  if (text === undefined) {
    text = readFileSync(path.join(process.cwd(), '.next', file), 'utf8');
    stylesheets.set(file, text);
  }
  return text;
}

/**
 * In production the stylesheet goes inside the HTML, as the App Router pages do it (`experimental.inlineCss`): on a
 * payer's slow phone network a separate, render-blocking CSS request costs a whole round trip before the first paint.
 */
class InlineStylesHead extends Head {
  getCssLinks(files: Parameters<Head['getCssLinks']>[0]) {
    if (process.env.NODE_ENV !== 'production') return super.getCssLinks(files);
    const styles = files.allFiles.filter((file) => file.endsWith('.css'));
    return styles.map((file) => <style key={file} data-href={file} dangerouslySetInnerHTML={{ __html: builtStylesheet(file) }} />);
  }
}

/**
 * The checkout's document: the page's language on <html>, and the checkout's one small script instead of a framework
 * (the page sets `unstable_runtimeJS: false`, so in production Next.js adds no scripts of its own).
 */
export default class CheckoutDocument extends Document<DocumentProps> {
  render() {
    const locale = (this.props.__NEXT_DATA__.props as { pageProps?: { locale?: string } }).pageProps?.locale ?? 'en';
    return (
      <Html lang={locale}>
        <InlineStylesHead />
        <body>
          <Main />
          <NextScript />
          <script dangerouslySetInnerHTML={{ __html: CHECKOUT_SCRIPT }} />
        </body>
      </Html>
    );
  }
}

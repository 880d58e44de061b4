import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_APP_ID_PLACEHOLDER, EXAMPLE_BASE_URL_PLACEHOLDER } from './example-programs';
import { exampleSources } from './example-sources';

describe('exampleSources', () => {
  it('is each example file with the merchant AppID and base URL in place of its fallbacks; the secret stays in the environment', async () => {
    const sources = await exampleSources({ appId: 'mch_0123abcd', baseUrl: 'https://pay.example' });
    expect(sources.map((source) => source.language)).toEqual(['php', 'java', 'python', 'go', 'node']);
    for (const source of sources) {
      const file = readFileSync(source.file, 'utf8');
      expect(file, source.file).toContain(EXAMPLE_APP_ID_PLACEHOLDER);
      expect(file, source.file).toContain(EXAMPLE_BASE_URL_PLACEHOLDER);
      expect(source.code).toBe(file.replaceAll(EXAMPLE_APP_ID_PLACEHOLDER, 'mch_0123abcd').replaceAll(EXAMPLE_BASE_URL_PLACEHOLDER, 'https://pay.example'));
      expect(source.code, source.file).toMatch(/APP_SECRET/);
    }
  });
});

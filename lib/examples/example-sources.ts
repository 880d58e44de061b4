import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EXAMPLE_APP_ID_PLACEHOLDER, EXAMPLE_BASE_URL_PLACEHOLDER, EXAMPLE_PROGRAMS, type ExampleProgram } from './example-programs';

export interface ExampleSource extends ExampleProgram {
  code: string;
}

/** The example files as they are in the repository (the service runs from its root), read once. */
let files: Promise<string[]> | undefined;

/**
 * The example programs, the very files CI runs, filled with the merchant's AppID and the service's base URL in place
 * of their fallbacks. The AppSecret stays an environment variable: a page must never be enough to sign orders.
 */
export async function exampleSources(merchant: { appId: string; baseUrl: string }): Promise<ExampleSource[]> {
  files ??= Promise.all(EXAMPLE_PROGRAMS.map((program) => readFile(path.join(process.cwd(), program.file), 'utf8')));
  const texts = await files.catch((error: unknown) => {
    files = undefined; // not cached: a later request tries again
    throw error;
  });
  return EXAMPLE_PROGRAMS.map((program, index) => ({
    ...program,
    code: texts[index]!.replaceAll(EXAMPLE_APP_ID_PLACEHOLDER, merchant.appId).replaceAll(EXAMPLE_BASE_URL_PLACEHOLDER, merchant.baseUrl),
  }));
}

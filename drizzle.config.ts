import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // The shared tables, and the tables a channel or its simulator keeps in its own folder (lib/channels/<x>/…, sandbox/<x>/).
  schema: ['./lib/db/schema/index.ts', './lib/channels/**/schema.ts', './sandbox/**/schema.ts'],
  out: './lib/db/migrations',
});

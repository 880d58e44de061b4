/**
 * Every process knows whether it is in production, not only `npm start`: unless NODE_ENV says otherwise, a process on
 * a DATABASE_URL is in production (the sandbox is then off unless SANDBOX_ENABLED=true), one on the embedded database
 * is in development. Called by the entry points once they know which database they use.
 */
export function settleRuntimeMode(onEmbeddedDatabase: boolean, env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV) return;
  (env as Record<string, string>).NODE_ENV = onEmbeddedDatabase ? 'development' : 'production';
}

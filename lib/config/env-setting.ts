/** A setting from the environment; blank counts as unset, so `FOO=` in a unit file never means "the empty value". */
export function envSetting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

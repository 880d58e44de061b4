import os from 'node:os';

/** Who the audit log names for a CLI action: $OPERATOR when set, else the shell user. */
export function cliActor(): string {
  return process.env.OPERATOR?.trim() || `cli:${os.userInfo().username}`;
}

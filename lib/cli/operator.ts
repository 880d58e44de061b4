import os from 'node:os';
import { OperatorActionRefused } from '../orders/operator-errors';
import { InputRejected } from './command';

/** Who the audit log names for a CLI action: $OPERATOR when set, else the shell user. */
export function cliActor(): string {
  return process.env.OPERATOR?.trim() || `cli:${os.userInfo().username}`;
}

/** Runs a domain action, turning its refusals into the CLI's input errors (exit 1). */
export async function asOperatorAction<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof OperatorActionRefused) throw new InputRejected(error.message);
    throw error;
  }
}

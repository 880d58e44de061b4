import { type CliCommand, type CommandOutput } from '@/lib/cli/command';
import { actionRefused } from '@/lib/errors/domain-error';
import type { Database } from '@/lib/db/client';

/**
 * A simulated upstream's `pay` command: `--order <no>` (required, not blank) and a flag that pays without sending
 * the upstream's callback/notification; the upstream's refusal (`refused`) is the operator's input error (exit 1).
 */
export function sandboxPayCommand(command: {
  group: string;
  summary: string;
  usage: string;
  /** The flag that pays without sending the callback, e.g. 'no-callback'. */
  silentFlag: string;
  refused: abstract new (...args: never[]) => Error;
  pay: (db: Database, orderNo: string, send: boolean) => Promise<CommandOutput>;
}): CliCommand {
  return {
    group: command.group,
    action: 'pay',
    summary: command.summary,
    usage: command.usage,
    options: { order: { type: 'string' }, [command.silentFlag]: { type: 'boolean' } },
    prepare(args) {
      args.expectPositionals();
      const orderNo = args.required('order').trim();
      if (orderNo === '') args.fail('option --order must not be empty');
      const send = !args.flag(command.silentFlag);
      return async (db) => {
        try {
          return await command.pay(db, orderNo, send);
        } catch (error) {
          if (error instanceof command.refused) throw actionRefused(error.message);
          throw error;
        }
      };
    },
  };
}

import type { CliCommand } from './command';
import { cliActor } from './operator';

const unlockUsage = `usage: npm run admin -- account unlock --email <email> [--reason <text>] [--json]

Lets an account's owner sign in again after its sign-ins were locked: past 20 failed password checks in 24 hours
from one network, that network is refused; past 100 from all networks together, every network the account never
signed in from is refused; each until its 24 hours end (the portal says so). Clears the account's sign-in counts
(audited). The owner signs in with the password at once; so would an attacker's next guesses: unlock
once the attack has stopped, or have the owner change the password.

  --email <email>    the account's sign-in email (merchant or operator)
  --reason <text>    recorded in the audit log
  --json             print one JSON object: {"accountId","email","cleared"}`;

export const accountUnlock: CliCommand = {
  group: 'account',
  action: 'unlock',
  summary: "let an account's owner sign in again after its sign-ins were locked",
  usage: unlockUsage,
  options: { email: { type: 'string' }, reason: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const email = args.required('email').trim();
    if (email === '') args.fail('option --email must not be empty');
    const reason = args.optional('reason');
    return async (db) => {
      const { unlockSignIn } = await import('../accounts/unlock-sign-in');
      const unlocked = await unlockSignIn(db, email, { actor: cliActor(), reason });
      return { json: { ...unlocked }, text: `account ${unlocked.email} (id ${unlocked.accountId}) unlocked: ${unlocked.cleared} sign-in count(s) cleared` };
    };
  },
};

const resetFactorUsage = `usage: npm run admin -- account reset-factor --email <email> --reason <text> [--json]

For an owner who lost the authenticator app and every recovery code: removes the account's two-step sign-in and
its recovery codes, and ends every session of the account. The owner then signs in with the password alone and is
told on the account page (when, and the reason) until a new app is set up. Check who is asking first: the reason
(required) says how the owner was recognised, and is audited with the operator.

  --email <email>    the account's sign-in email (merchant or operator)
  --reason <text>    how the owner was recognised (required; audited, and shown to the owner)
  --json             print one JSON object: {"accountId","email"}`;

export const accountResetFactor: CliCommand = {
  group: 'account',
  action: 'reset-factor',
  summary: "remove the two-step sign-in of an owner who lost the authenticator app and the recovery codes",
  usage: resetFactorUsage,
  options: { email: { type: 'string' }, reason: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const email = args.required('email').trim();
    if (email === '') args.fail('option --email must not be empty');
    const reason = args.required('reason').trim();
    if (reason === '') args.fail('option --reason must not be empty: say how the owner was recognised');
    return async (db) => {
      const { resetSecondFactor } = await import('../accounts/reset-second-factor');
      const reset = await resetSecondFactor(db, { email, actor: cliActor(), reason, now: new Date() });
      return { json: { ...reset }, text: `account ${reset.email} (id ${reset.accountId}): two-step sign-in removed, its sessions ended; the owner signs in with the password and sets up a new app` };
    };
  },
};

export const accountCommands: CliCommand[] = [accountUnlock, accountResetFactor];

import type { CliCommand } from './command';
import { cliActor } from './operator';

/** The password of a new operator: $OPERATOR_PASSWORD, else the first line of stdin. Never an argument (shell history, ps). */
async function readOperatorPassword(): Promise<string> {
  const fromEnvironment = process.env.OPERATOR_PASSWORD;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  if (process.stdin.isTTY) process.stderr.write('password for the new operator (at least 10 characters): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (Buffer.concat(chunks).includes(0x0a)) break; // the first line is enough
  }
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

const addUsage = `usage: npm run admin -- operator add --email <email> [--json]

Creates an operator account for the console (/operator; same sign-in page as merchants). The password is read from
the environment variable OPERATOR_PASSWORD, else from the first line of stdin; never from the command line.
At least 10 characters. Audited. Prints the link to the new operator's account page, where they set up two-step
sign-in (an authenticator app) after signing in; in production the console opens nothing else until they have.

  --email <email>    the operator's sign-in email (also the actor named in the audit log)
  --json             print one JSON object: {"id","email","role","enrolUrl"}`;

export const operatorAdd: CliCommand = {
  group: 'operator',
  action: 'add',
  summary: 'create an operator account for the console (password from $OPERATOR_PASSWORD or stdin)',
  usage: addUsage,
  options: { email: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const email = args.required('email').trim();
    if (email === '') args.fail('option --email must not be empty');
    return async (db) => {
      const password = await readOperatorPassword();
      const { addOperatorAccount } = await import('../operator/add-operator-account');
      const account = await addOperatorAccount(db, { email, password, actor: cliActor() });
      // The running service's address as it recorded it, else the configured one.
      const { recordedServiceBaseUrl } = await import('../settings/service-address');
      const { publicBaseUrl } = await import('../orders/identifiers');
      const enrolUrl = `${process.env.PUBLIC_BASE_URL ? publicBaseUrl() : ((await recordedServiceBaseUrl(db)) ?? publicBaseUrl())}/operator/account`;
      return {
        json: { id: account.id, email: account.email, role: 'operator', enrolUrl },
        text: `operator account ${account.email} created (id ${account.id})\nsign in, then set up two-step sign-in at ${enrolUrl}`,
      };
    };
  },
};

export const operatorCommands: CliCommand[] = [operatorAdd];

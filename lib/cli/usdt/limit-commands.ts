import { formatMinorUnits, parseMinorUnits } from '../../money/decimal-amount';
import type { CliCommand, CommandOutput } from '../command';
import { UsageError } from '../usage-error';
import { cliActor } from '../operator';

function limitOutput(minor: bigint): CommandOutput {
  const usdtMaxPerOrder = formatMinorUnits(minor);
  return { json: { usdtMaxPerOrder }, text: `USDT per-order limit: ${usdtMaxPerOrder} USDT` };
}

const setUsage = `usage: npm run admin -- limit set --usdt-max <amount> [--json]

Sets the platform's per-order limit for USDT orders; larger orders are refused with code 1008.

  --usdt-max <amount>  a decimal amount of USDT greater than 0 with at most 2 decimal places, e.g. 10000 or 2500.50
  --json               print one JSON object: {"usdtMaxPerOrder"}`;

export const limitSet: CliCommand = {
  group: 'limit',
  action: 'set',
  summary: 'set the per-order limit for USDT orders',
  usage: setUsage,
  options: { 'usdt-max': { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const text = args.required('usdt-max');
    const minor = parseMinorUnits(text);
    if (minor === undefined || minor <= 0n) {
      throw new UsageError(`option --usdt-max must be an amount greater than 0 with at most 2 decimal places, got ${JSON.stringify(text)}`, setUsage);
    }
    return async (db) => {
      const { getUsdtMaxPerOrderMinor, setUsdtMaxPerOrderMinor } = await import('../../channels/usdt/max-per-order');
      await setUsdtMaxPerOrderMinor(db, minor, { actor: cliActor() });
      return limitOutput(await getUsdtMaxPerOrderMinor(db));
    };
  },
};

const showUsage = `usage: npm run admin -- limit show [--json]

Shows the platform's per-order limit for USDT orders.

  --json             print one JSON object: {"usdtMaxPerOrder"}`;

export const limitShow: CliCommand = {
  group: 'limit',
  action: 'show',
  summary: 'show the per-order limit for USDT orders',
  usage: showUsage,
  options: {},
  prepare(args) {
    args.expectPositionals();
    return async (db) => {
      const { getUsdtMaxPerOrderMinor } = await import('../../channels/usdt/max-per-order');
      return limitOutput(await getUsdtMaxPerOrderMinor(db));
    };
  },
};

export const limitCommands: CliCommand[] = [limitSet, limitShow];

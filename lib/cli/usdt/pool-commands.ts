import type { CliCommand, CommandOutput } from '../command';
import { UsageError } from '../usage-error';
import { cliActor } from '../operator';
import type { MerchantPoolLimits, PoolLimitSetting } from '../../channels/usdt/merchant-pool-limits';

const setUsage = `usage: npm run admin -- pool set --app-id <appId> [--held-slots <n>|default|none] [--amount-slots <n>|default|none] [--reason <text>] [--json]

Sets one merchant's share of the shared USDT receiving-address pool, per network (audited). Its orders hold
(address, amount) slots while pending and through the cool-down after their window; past a limit its submits are
answered 1010 naming the limit. See docs/channels/usdt.md for sizing the pool.

  --app-id <appId>     the merchant's AppId
  --held-slots <n>     slots its orders may hold on one network (default 500)
  --amount-slots <n>   slots it may hold of one amount and the next cent (default: the network's enabled
                       addresses, half of those slots, so that another merchant always finds one)
                       each: a whole number 1 or more, "default", or "none" (no limit)
  --reason <text>      recorded in the audit log
  --json               print one JSON object: {"appId","maxHeldSlots","maxAmountSlots"}`;

const showUsage = `usage: npm run admin -- pool show --app-id <appId> [--json]

Shows one merchant's share of the shared USDT receiving-address pool (see pool set).

  --app-id <appId>   the merchant's AppId
  --json             print one JSON object: {"appId","maxHeldSlots","maxAmountSlots"}`;

function limitsOutput(limits: MerchantPoolLimits): CommandOutput {
  const shown = (setting: PoolLimitSetting) => String(setting);
  return {
    json: { ...limits },
    text: `merchant ${limits.appId}: held slots per network ${shown(limits.maxHeldSlots)}, slots of one amount ${shown(limits.maxAmountSlots)}`,
  };
}

function parseLimit(text: string | undefined, option: string): PoolLimitSetting | undefined {
  if (text === undefined) return undefined;
  if (text === 'default' || text === 'none') return text;
  if (!/^[1-9]\d{0,6}$/.test(text)) throw new UsageError(`option --${option} must be a whole number from 1 to 9999999, "default" or "none", got ${JSON.stringify(text)}`, setUsage);
  return Number(text);
}

export const poolSet: CliCommand = {
  group: 'pool',
  action: 'set',
  summary: "set a merchant's share of the USDT receiving-address pool",
  usage: setUsage,
  options: { 'app-id': { type: 'string' }, 'held-slots': { type: 'string' }, 'amount-slots': { type: 'string' }, reason: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const appId = args.required('app-id');
    const maxHeldSlots = parseLimit(args.optional('held-slots'), 'held-slots');
    const maxAmountSlots = parseLimit(args.optional('amount-slots'), 'amount-slots');
    if (maxHeldSlots === undefined && maxAmountSlots === undefined) args.fail('give --held-slots, --amount-slots or both');
    const reason = args.optional('reason');
    return async (db) => {
      const { setMerchantPoolLimits } = await import('../../channels/usdt/merchant-pool-limits');
      return limitsOutput(await setMerchantPoolLimits(db, appId, { maxHeldSlots, maxAmountSlots }, { actor: cliActor(), reason }));
    };
  },
};

export const poolShow: CliCommand = {
  group: 'pool',
  action: 'show',
  summary: "show a merchant's share of the USDT receiving-address pool",
  usage: showUsage,
  options: { 'app-id': { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const appId = args.required('app-id');
    return async (db) => {
      const { findMerchantPoolLimits } = await import('../../channels/usdt/merchant-pool-limits');
      return limitsOutput(await findMerchantPoolLimits(db, appId));
    };
  },
};

export const poolCommands: CliCommand[] = [poolSet, poolShow];

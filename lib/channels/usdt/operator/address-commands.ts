import { USDT_CHAINS } from '../usdt-chains';
import { type CliCommand } from '../../../cli/command';
import { cliActor } from '../../../cli/operator';

const SUPPORTED_CHAINS = USDT_CHAINS.map((chain) => chain.name);

const addUsage = `usage: npm run admin -- address add --chain ${SUPPORTED_CHAINS.join('|')} <address> [--json]

Adds a receiving address to the pool USDT orders are spread over. Adding an address that is already in the pool
changes nothing and succeeds ("created": false).

  --chain <chain>    the chain of the address: ${SUPPORTED_CHAINS.join(', ')}
  <address>          the address (TRON: base58check, starts with T; ERC20/BEP20/POLYGON: 0x…, EIP-55 checksummed)
  --json             print one JSON object: {"id","chain","address","enabled","created"}`;

export const addressAdd: CliCommand = {
  group: 'address',
  action: 'add',
  summary: 'add a receiving address to the pool (idempotent)',
  usage: addUsage,
  options: { chain: { type: 'string' } },
  prepare(args) {
    const [address] = args.expectPositionals('address');
    const chain = args.required('chain').toUpperCase();
    return async (db) => {
      const { addReceivingAddress } = await import('../receiving-addresses');
      const { address: row, created } = await addReceivingAddress(db, chain, address!, { actor: cliActor() });
      return {
        json: { id: row.id, chain: row.chain, address: row.address, enabled: row.enabled, created },
        text: `${created ? 'added' : 'already in the pool'}: ${row.chain} ${row.address} (id ${row.id}, ${row.enabled ? 'enabled' : 'disabled'})`,
      };
    };
  },
};

const listUsage = `usage: npm run admin -- address list [--json]

Lists the receiving addresses with the number of pending orders on each.

  --json             print one JSON object: {"addresses":[{"id","chain","address","enabled","pendingOrders"}]}`;

export const addressList: CliCommand = {
  group: 'address',
  action: 'list',
  summary: 'list receiving addresses with their pending order counts',
  usage: listUsage,
  options: {},
  prepare(args) {
    args.expectPositionals();
    return async (db) => {
      const { listReceivingAddresses } = await import('../receiving-addresses');
      const addresses = (await listReceivingAddresses(db)).map((row) => ({
        id: row.id,
        chain: row.chain,
        address: row.address,
        enabled: row.enabled,
        pendingOrders: Number(row.pendingOrders),
      }));
      return { json: { addresses }, text: addressTable(addresses) };
    };
  },
};

function addressTable(rows: { id: number; chain: string; address: string; enabled: boolean; pendingOrders: number }[]): string {
  if (rows.length === 0) return 'no receiving addresses yet: add one with `npm run admin -- address add --chain TRC20 <address>`';
  const header = ['id', 'chain', 'address', 'enabled', 'pending'];
  const cells = rows.map((row) => [String(row.id), row.chain, row.address, row.enabled ? 'yes' : 'no', String(row.pendingOrders)]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const format = (line: string[]) => line.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [format(header), ...cells.map(format)].join('\n');
}

function enableCommand(action: 'enable' | 'disable'): CliCommand {
  const usage = `usage: npm run admin -- address ${action} --id <id> [--json]

${action === 'enable' ? 'Puts a receiving address back in the pool for new USDT orders.' : 'Takes a receiving address out of the pool for new USDT orders; pending orders on it keep it and its transfers are still read.'} Audited.

  --id <id>          the address's id (see address list)
  --json             print one JSON object: {"id","chain","address","enabled"}`;
  return {
    group: 'address',
    action,
    summary: action === 'enable' ? 'put a receiving address back in the pool' : 'take a receiving address out of the pool for new orders',
    usage,
    options: { id: { type: 'string' } },
    prepare(args) {
      args.expectPositionals();
      const text = args.required('id');
      if (!/^[1-9]\d{0,15}$/.test(text)) args.fail(`option --id must be an address id (a positive integer), got ${JSON.stringify(text)}`);
      const id = Number(text);
      return async (db) => {
        const { setReceivingAddressEnabled } = await import('../receiving-addresses');
        const row = await setReceivingAddressEnabled(db, { id, enabled: action === 'enable', actor: cliActor() });
        return {
          json: { id: row.id, chain: row.chain, address: row.address, enabled: row.enabled },
          text: `${row.chain} ${row.address} (id ${row.id}): ${row.enabled ? 'enabled' : 'disabled'}`,
        };
      };
    },
  };
}

export const addressCommands: CliCommand[] = [addressAdd, addressList, enableCommand('enable'), enableCommand('disable')];

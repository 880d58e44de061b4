import { InvalidReceivingAddress, SUPPORTED_CHAINS, addReceivingAddress, listReceivingAddresses } from '../addresses/receiving-addresses';
import { InputRejected, type CliCommand } from './command';

const addUsage = `usage: npm run admin -- address add --chain ${SUPPORTED_CHAINS.join('|')} <address> [--json]

Adds a receiving address to the pool USDT orders are spread over. Adding an address that is already in the pool
changes nothing and succeeds ("created": false).

  --chain <chain>    the chain of the address: ${SUPPORTED_CHAINS.join(', ')}
  <address>          the address (TRON: base58check, starts with T)
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
      try {
        const { address: row, created } = await addReceivingAddress(db, chain, address!);
        return {
          json: { id: row.id, chain: row.chain, address: row.address, enabled: row.enabled, created },
          text: `${created ? 'added' : 'already in the pool'}: ${row.chain} ${row.address} (id ${row.id}, ${row.enabled ? 'enabled' : 'disabled'})`,
        };
      } catch (error) {
        if (error instanceof InvalidReceivingAddress) throw new InputRejected(error.message);
        throw error;
      }
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

export const addressCommands: CliCommand[] = [addressAdd, addressList];

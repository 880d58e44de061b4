import { USDT_CHAINS } from '../../channels/usdt/usdt-chains';
import { type CliCommand } from '../command';
import { cliActor } from '../operator';

const SUPPORTED_CHAINS = USDT_CHAINS.map((chain) => chain.name);

const addUsage = `usage: npm run admin -- address add --chain ${SUPPORTED_CHAINS.join('|')} <address>... [--file <path>] [--json]

Adds receiving addresses to the pool USDT orders are spread over: one or several on the command line, and/or a file
with one address per line (blank lines and lines starting with # are skipped; - reads standard input). All or none:
every address is checked first, and one bad address adds nothing (the error names it). Adding an address that is
already in the pool changes nothing and succeeds ("created": false). Each new address is audited.

  --chain <chain>    the chain of the addresses: ${SUPPORTED_CHAINS.join(', ')}
  <address>          an address (TRON: base58check, starts with T; ERC20/BEP20/POLYGON: 0x…, EIP-55 checksummed)
  --file <path>      more addresses, one per line
  --json             one address: one JSON object {"id","chain","address","enabled","created"};
                     several: {"addresses":[{"id","chain","address","enabled","created"}],"added","alreadyInPool"}`;

/** Addresses from a file (or standard input), one per line; blank lines and # comments are skipped. */
async function addressesFromFile(file: string): Promise<string[]> {
  const { readFile } = await import('node:fs/promises');
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const addressAdd: CliCommand = {
  group: 'address',
  action: 'add',
  summary: 'add receiving addresses to the pool (idempotent; several at once, or from a file)',
  usage: addUsage,
  options: { chain: { type: 'string' }, file: { type: 'string' } },
  prepare(args) {
    const chain = args.required('chain').toUpperCase();
    const file = args.optional('file');
    const given = [...args.positionals];
    if (given.length === 0 && file === undefined) args.fail('missing argument <address> (or --file <path>)');
    return async (db) => {
      const fromFile = file === undefined ? [] : await addressesFromFile(file).catch((error: NodeJS.ErrnoException) => args.fail(`--file ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`));
      const addresses = [...given, ...fromFile];
      if (addresses.length === 0) args.fail(`no address in ${file === '-' ? 'standard input' : file}`);
      const { addReceivingAddresses } = await import('../../channels/usdt/receiving-addresses');
      const added = await addReceivingAddresses(db, chain, addresses, { actor: cliActor() });
      const rows = added.map(({ address: row, created }) => ({ id: row.id, chain: row.chain, address: row.address, enabled: row.enabled, created }));
      const lines = rows.map((row) => `${row.created ? 'added' : 'already in the pool'}: ${row.chain} ${row.address} (id ${row.id}, ${row.enabled ? 'enabled' : 'disabled'})`);
      if (rows.length === 1 && file === undefined) return { json: rows[0]!, text: lines[0]! };
      const newCount = rows.filter((row) => row.created).length;
      return {
        json: { addresses: rows, added: newCount, alreadyInPool: rows.length - newCount },
        text: [...lines, `${newCount} added, ${rows.length - newCount} already in the pool`].join('\n'),
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
      const { listReceivingAddresses } = await import('../../channels/usdt/receiving-addresses');
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
        const { setReceivingAddressEnabled } = await import('../../channels/usdt/receiving-addresses');
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

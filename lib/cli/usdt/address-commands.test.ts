import { asc, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { aMerchant, aTronAddress } from '../../../test/factories';
import { listReceivingAddresses } from '../../channels/usdt/receiving-addresses';
import { getDb } from '../../db/client';
import { orders, receivingAddresses } from '../../db/schema';
import { createUsdtOrder } from '../../channels/usdt/create-usdt-order';
import { parseSingleJsonObject, runAdmin, runAdminJson } from '../run-admin-for-tests';

/** A well-formed TRON address whose checksum is wrong (last character changed). */
function withBrokenChecksum(address: string): string {
  const last = address.at(-1)!;
  return `${address.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}

async function storedAddresses() {
  return listReceivingAddresses(getDb());
}

describe('admin address add', () => {
  it('adds a valid TRC20 address, and adding it again changes nothing', async () => {
    const address = aTronAddress();
    const first = await runAdminJson(['address', 'add', '--chain', 'TRC20', address]);
    expect(Object.keys(first).sort()).toEqual(['address', 'chain', 'created', 'enabled', 'id']);
    expect(first).toMatchObject({ chain: 'TRC20', address, enabled: true, created: true });
    expect(typeof first.id).toBe('number');

    const again = await runAdminJson(['address', 'add', '--chain', 'TRC20', address]);
    expect(again).toEqual({ ...first, created: false });
    expect((await storedAddresses()).filter((row) => row.address === address)).toHaveLength(1);
  });

  it('says whether it added the address in its human-readable output', async () => {
    const address = aTronAddress();
    const first = await runAdmin(['address', 'add', '--chain', 'TRC20', address]);
    const again = await runAdmin(['address', 'add', '--chain', 'TRC20', address]);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^added: TRC20 ${address}`));
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^already in the pool: TRC20 ${address}`));
  });

  it('refuses an address that is not base58check TRON, naming it', async () => {
    const broken = withBrokenChecksum(aTronAddress());
    const [badChecksum, notAnAddress] = await Promise.all([
      runAdmin(['address', 'add', '--chain', 'TRC20', broken, '--json']),
      runAdmin(['address', 'add', '--chain', 'TRC20', '0x52908400098527886E0F7030069857D2E4169EE7']),
    ]);
    expect(badChecksum.exitCode).toBe(1);
    expect(badChecksum.stderr).toContain(`${broken} is not a valid TRON address`);
    expect(parseSingleJsonObject(badChecksum.stdout)).toMatchObject({ error: { kind: 'rejected' } });
    expect(notAnAddress.exitCode).toBe(1);
    expect(notAnAddress.stderr).toContain('0x52908400098527886E0F7030069857D2E4169EE7 is not a valid TRON address');
    const stored = (await storedAddresses()).map((row) => row.address);
    expect(stored).not.toContain(broken);
  });

  it('adds an EVM address per chain in its EIP-55 form and refuses a broken checksum, naming the field', async () => {
    const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'; // EIP-55's own example
    const brokenChecksum = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
    const [erc20, polygon, broken, tronOnEvm] = await Promise.all([
      runAdminJson(['address', 'add', '--chain', 'ERC20', checksummed]),
      runAdmin(['address', 'add', '--chain', 'POLYGON', checksummed.toLowerCase()]),
      runAdmin(['address', 'add', '--chain', 'BEP20', brokenChecksum]),
      runAdmin(['address', 'add', '--chain', 'BEP20', aTronAddress()]),
    ]);
    expect(erc20).toMatchObject({ chain: 'ERC20', address: checksummed, created: true });
    expect(polygon.exitCode).toBe(1); // all lower case carries no checksum to check: refused
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toContain(`address: ${brokenChecksum} is not an EVM address with a valid EIP-55 checksum`);
    expect(tronOnEvm.exitCode).toBe(1);
    expect(tronOnEvm.stderr).toContain('is not an EVM address');
    const stored = await storedAddresses();
    expect(stored.filter((row) => row.address === checksummed).map((row) => row.chain)).toEqual(['ERC20']);
    expect(stored.map((row) => row.address)).not.toContain(brokenChecksum);
  });

  it('refuses an unsupported chain and names a missing --chain or address', async () => {
    const address = aTronAddress();
    const [otherChain, noChain, noAddress] = await Promise.all([
      runAdmin(['address', 'add', '--chain', 'SOLANA', address]),
      runAdmin(['address', 'add', address]),
      runAdmin(['address', 'add', '--chain', 'TRC20']),
    ]);
    expect(otherChain.exitCode).toBe(1);
    expect(otherChain.stderr).toContain('chain must be one of TRC20');
    expect(noChain.exitCode).toBe(1);
    expect(noChain.stderr).toContain('missing option --chain');
    expect(noAddress.exitCode).toBe(1);
    expect(noAddress.stderr).toContain('missing argument <address>');
    expect((await storedAddresses()).map((row) => row.address)).not.toContain(address);
  });
});

describe('admin address list', () => {
  /** Pending orders per address id, counted straight from the orders table. */
  async function pendingOrdersByAddress(): Promise<Map<number, number>> {
    const rows = await getDb()
      .select({ addressId: orders.receivingAddressId, pending: count() })
      .from(orders)
      .where(eq(orders.status, 'pending'))
      .groupBy(orders.receivingAddressId);
    return new Map(rows.map((row) => [row.addressId!, row.pending]));
  }

  it('lists every address with its number of pending orders (closed orders not counted)', async () => {
    await runAdminJson(['address', 'add', '--chain', 'TRC20', aTronAddress()]);
    await runAdminJson(['address', 'add', '--chain', 'TRC20', aTronAddress()]);
    const merchant = await aMerchant();
    // 10.00 twice takes the same amount on two addresses; 20.00 goes back to the first one.
    const created = [];
    for (const [index, amountMinor] of [1000n, 1000n, 2000n, 3000n].entries()) {
      created.push(await createUsdtOrder(getDb(), merchant.id, { merchantOrderNo: `LIST-${index}`, amountMinor, chainType: '1' }));
    }
    await getDb().update(orders).set({ status: 'closed', closedAt: new Date() }).where(eq(orders.id, created[3]!.order.id));

    const { addresses } = (await runAdminJson(['address', 'list'])) as { addresses: Record<string, unknown>[] };
    const stored = await getDb().select().from(receivingAddresses).orderBy(asc(receivingAddresses.id));
    expect(addresses.map((entry) => entry.address)).toEqual(stored.map((row) => row.address));
    for (const entry of addresses) expect(Object.keys(entry).sort()).toEqual(['address', 'chain', 'enabled', 'id', 'pendingOrders']);

    const pending = await pendingOrdersByAddress();
    for (const entry of addresses) expect(entry.pendingOrders).toBe(pending.get(entry.id as number) ?? 0);
    expect(addresses.map((entry) => entry.pendingOrders as number).sort()).toEqual([...Array(addresses.length - 2).fill(0), 1, 2]);
    const holding = addresses.find((entry) => entry.pendingOrders === 2)!;
    expect(holding.id).toBe(created[0]!.order.receivingAddressId);
    expect(holding).toMatchObject({ chain: 'TRC20', enabled: true });
  });

  it('prints a table without --json', async () => {
    const run = await runAdmin(['address', 'list']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^id\s+chain\s+address\s+enabled\s+pending$/);
    for (const row of await storedAddresses()) expect(run.stdout).toContain(row.address);
  });
});

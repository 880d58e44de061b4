import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { aTronAddress } from '../../../test/factories';
import { runAdmin, runAdminJson, parseSingleJsonObject } from '../run-admin-for-tests';
import { getDb } from '../../db/client';
import { auditLog, receivingAddresses } from '../../db/schema';
import { addReceivingAddress } from '../../channels/usdt/receiving-addresses';

const env = { ...process.env, OPERATOR: 'ops-bulk@example.com' };

function addressFile(lines: string[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'addresses-')), 'pool.txt');
  writeFileSync(file, lines.join('\n'));
  return file;
}

async function stored(addresses: string[]) {
  return getDb().select().from(receivingAddresses).where(and(eq(receivingAddresses.chain, 'TRC20'), inArray(receivingAddresses.address, addresses)));
}

describe('address add with many addresses (one command, all or none)', () => {
  it('adds 50 addresses from a file and the command line in one run, each audited once, repeats and known ones reported as such', async () => {
    const known = aTronAddress();
    await addReceivingAddress(getDb(), 'TRC20', known);
    const fresh = Array.from({ length: 48 }, () => aTronAddress());
    const onCommandLine = aTronAddress();
    const file = addressFile(['# pool addresses bought today', '', ...fresh, fresh[0]!, `  ${known}  `]);

    const answer = await runAdminJson(['address', 'add', '--chain', 'trc20', onCommandLine, '--file', file], { env });

    expect(answer).toMatchObject({ added: 49, alreadyInPool: 2 });
    const rows = answer.addresses as { address: string; created: boolean; enabled: boolean }[];
    expect(rows.map((row) => row.address)).toEqual([onCommandLine, ...fresh, fresh[0], known]);
    expect(rows.filter((row) => row.created).map((row) => row.address).sort()).toEqual([onCommandLine, ...fresh].sort());
    expect(await stored([onCommandLine, ...fresh, known])).toHaveLength(50);
    const audited = await getDb().select().from(auditLog).where(and(eq(auditLog.actor, 'ops-bulk@example.com'), eq(auditLog.action, 'address.add')));
    const ids = new Set((await stored([onCommandLine, ...fresh])).map((row) => `address:${row.id}`));
    expect(audited.filter((entry) => ids.has(entry.subject))).toHaveLength(49);
  }, 60_000);

  it('adds nothing when one address of the list is bad, and names it with its position', async () => {
    const good = [aTronAddress(), aTronAddress()];
    const file = addressFile([good[0]!, 'TNotAnAddress', good[1]!]);

    const run = await runAdmin(['address', 'add', '--chain', 'TRC20', '--file', file, '--json'], { env });

    expect(run.exitCode).toBe(1);
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({
      error: { kind: 'rejected', message: 'address 2 of 3: TNotAnAddress is not a valid TRON address (base58check)' },
    });
    expect(await stored(good)).toHaveLength(0);
  }, 60_000);

  it('refuses a missing file and an empty one as usage errors, before touching the pool', async () => {
    const missing = await runAdmin(['address', 'add', '--chain', 'TRC20', '--file', '/nonexistent/pool.txt', '--json'], { env });
    expect(missing.exitCode).toBe(1);
    expect(parseSingleJsonObject(missing.stdout)).toMatchObject({ error: { kind: 'usage', message: '--file /nonexistent/pool.txt: no such file' } });

    const empty = await runAdmin(['address', 'add', '--chain', 'TRC20', '--file', addressFile(['# nothing yet', '']), '--json'], { env });
    expect(empty.exitCode).toBe(1);
    expect(parseSingleJsonObject(empty.stdout)).toMatchObject({ error: { kind: 'usage' } });

    const none = await runAdmin(['address', 'add', '--chain', 'TRC20', '--json'], { env });
    expect(parseSingleJsonObject(none.stdout)).toMatchObject({ error: { kind: 'usage', message: 'missing argument <address> (or --file <path>)' } });
  }, 60_000);
});

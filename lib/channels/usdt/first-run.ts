import type { ChannelFirstRun } from '../channel';
import { addReceivingAddress } from './receiving-addresses';
import { tronAddressFromAccountBytes } from './tron/address';

/** A fixed, valid sandbox address so that development data looks the same on every machine. */
export const SANDBOX_RECEIVING_ADDRESS = tronAddressFromAccountBytes(Buffer.alloc(20, 0x5a));

/** The first run's receiving address (TRC20, paid from the sandbox wallet) and where to pay from. */
export const usdtFirstRun: ChannelFirstRun = {
  async seed(db) {
    await addReceivingAddress(db, 'TRC20', SANDBOX_RECEIVING_ADDRESS);
  },
  describe: ({ baseUrl }) => [
    { label: 'USDT receiving address (sandbox)', value: SANDBOX_RECEIVING_ADDRESS },
    { label: 'sandbox wallet', value: `${baseUrl}/sandbox/tron  (pays USDT orders; \`npm run sandbox -- tron transfer\` does it too)` },
  ],
};

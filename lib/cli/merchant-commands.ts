import { parseOnOff } from './args';
import { type CliCommand } from './command';
import { cliActor } from './operator';

const onOff = (enabled: boolean) => (enabled ? 'on' : 'off');

const MERCHANT_NAME_MAX_LENGTH = 200;

const createUsage = `usage: npm run admin -- merchant create --name <name> --orders on|off [--json]

Creates a merchant and prints its AppId and AppSecret. The AppSecret is stored encrypted and printed only this
once: hand it to the merchant now.

  --name <name>      the merchant's display name
  --orders on|off    whether the merchant may create orders
  --json             print one JSON object: {"appId","appSecret","name","orderPermission"}`;

export const merchantCreate: CliCommand = {
  group: 'merchant',
  action: 'create',
  summary: 'create a merchant and print its AppId and AppSecret (shown once)',
  usage: createUsage,
  options: { name: { type: 'string' }, orders: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const name = args.required('name').trim();
    if (name === '') args.fail('option --name must not be empty');
    if (name.length > MERCHANT_NAME_MAX_LENGTH) args.fail(`option --name must be at most ${MERCHANT_NAME_MAX_LENGTH} characters`);
    const orderPermission = parseOnOff(args.required('orders'), 'option --orders', createUsage);
    return async (db) => {
      const { createMerchant } = await import('../merchants/merchants');
      const { merchant, appSecret } = await createMerchant(db, { name, orderPermission });
      return {
        json: { appId: merchant.appId, appSecret, name: merchant.name, orderPermission: merchant.orderPermission },
        text: [
          `created merchant ${JSON.stringify(merchant.name)}`,
          `  appId:     ${merchant.appId}`,
          `  appSecret: ${appSecret}`,
          `  orders:    ${onOff(merchant.orderPermission)}`,
          'The AppSecret is shown only this once; give it to the merchant now.',
        ].join('\n'),
      };
    };
  },
};

const ordersUsage = `usage: npm run admin -- merchant orders on|off --app-id <appId> [--json]

Allows (on) or stops (off) order creation for a merchant (audited: $OPERATOR, else your user name).

  --app-id <appId>   the merchant's AppId
  --json             print one JSON object: {"appId","orderPermission"}`;

export const merchantOrders: CliCommand = {
  group: 'merchant',
  action: 'orders',
  summary: 'allow (on) or stop (off) order creation for a merchant',
  usage: ordersUsage,
  options: { 'app-id': { type: 'string' } },
  prepare(args) {
    const [setting] = args.expectPositionals('on|off');
    const orderPermission = parseOnOff(setting!, 'argument on|off', ordersUsage);
    const appId = args.required('app-id');
    return async (db) => {
      const { setOrderPermission } = await import('../merchants/merchants');
      const merchant = await setOrderPermission(db, appId, orderPermission, { actor: cliActor() });
      return {
        json: { appId: merchant.appId, orderPermission: merchant.orderPermission },
        text: `merchant ${merchant.appId} (${merchant.name}): orders ${onOff(merchant.orderPermission)}`,
      };
    };
  },
};

export const merchantCommands: CliCommand[] = [merchantCreate, merchantOrders];

import type { ChannelTestOrder } from '../channel';

/** A test order from the portal's test-mode panel, as a merchant's server would submit it. */
export const yhtTestOrder: ChannelTestOrder = {
  payMethods: ['aliPay', 'wxPub', 'wxLite', 'unionPay', 'wxH5', 'bankCard', 'bankFast'],
  fields: ({ amount, payMethod }) => ({ channel: 'YHT', payMethod, payMoney: amount }),
};

import { CHANNEL_NAMES, type ChannelName } from '../channels/channel-names';
import { usdtEvmCommands } from '../channels/usdt/evm/evm-commands';
import { addressCommands } from '../channels/usdt/operator/address-commands';
import { limitCommands } from '../channels/usdt/operator/limit-commands';
import { poolCommands } from '../channels/usdt/operator/pool-commands';
import type { CliCommand } from './command';

/**
 * Each channel's own operator commands (receiving addresses, limits, chains…), listed after the merchant commands.
 * Kept apart from the channel registry so that the CLI loads no channel to list or parse its commands, and a channel
 * names no CLI type; typed by the channels' names, so a new channel has to say here what it brings.
 */
const COMMANDS_BY_CHANNEL: Record<ChannelName, readonly CliCommand[]> = {
  USDT: [...addressCommands, ...limitCommands, ...poolCommands, ...usdtEvmCommands],
  ALIPAY: [],
  WECHAT: [],
  YHT: [],
};

export const CHANNEL_COMMANDS: readonly CliCommand[] = CHANNEL_NAMES.flatMap((name) => COMMANDS_BY_CHANNEL[name]);

import { CHANNEL_NAMES, type ChannelName } from '../channels/channel-names';
import { usdtEvmCommands } from './usdt/evm-commands';
import { addressCommands } from './usdt/address-commands';
import { limitCommands } from './usdt/limit-commands';
import { poolCommands } from './usdt/pool-commands';
import type { CliCommand } from './command';

/**
 * Each channel's own operator commands (receiving addresses, limits, chains…), listed after the merchant commands.
 * Kept apart from the channel registry so that the CLI loads no channel to list or parse its commands, and a channel
 * names no CLI type (a channel's commands live under lib/cli/<channel>/ and import the channel, never the reverse);
 * typed by the channels' names, so a new channel has to say here what it brings.
 */
const COMMANDS_BY_CHANNEL: Record<ChannelName, readonly CliCommand[]> = {
  USDT: [...addressCommands, ...limitCommands, ...poolCommands, ...usdtEvmCommands],
  ALIPAY: [],
  WECHAT: [],
  YHT: [],
};

export const CHANNEL_COMMANDS: readonly CliCommand[] = CHANNEL_NAMES.flatMap((name) => COMMANDS_BY_CHANNEL[name]);

import { CHANNELS } from '../../channels';
import type { Channel } from '../../channels/channel';

/** The names of the registry's channels that `which` picks, in its order, as a sentence lists them: 'A', 'A and B', 'A, B and C'. */
export function channelNames(which: (channel: Channel) => boolean): string {
  const names = CHANNELS.filter(which).map((channel) => channel.name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}

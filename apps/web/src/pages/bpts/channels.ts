import type { TFunction } from 'i18next';

/** The suggested sales channels (DESIGN §9); any other text is a channel too. */
export const suggestedChannels = ['store', 'online', 'event'] as const;

/** A channel as people read it: the suggested ones in the current language, others as typed. */
export function channelLabel(t: TFunction, channel: string): string {
  return (suggestedChannels as readonly string[]).includes(channel) ? t(`bpts.channels.${channel}`) : channel;
}

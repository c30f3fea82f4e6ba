import type { TFunction } from '../../i18n/index.ts';

/** The suggested sales channels (DESIGN §9), stored by these names; any other text is a channel too. */
export const suggestedChannels = ['store', 'online', 'event'] as const;

/** A channel as people read it: the suggested ones in the current language, others as typed. */
export function channelLabel(t: TFunction, channel: string): string {
  return (suggestedChannels as readonly string[]).includes(channel) ? t(`bpts.channels.${channel}`) : channel;
}

/** The channel to store for what was typed: a suggestion's name when its label (or name) was typed. */
export function channelValue(t: TFunction, typed: string): string {
  const text = typed.trim();
  const lower = text.toLowerCase();
  const suggested = suggestedChannels.find(
    (channel) => channel === lower || t(`bpts.channels.${channel}`).toLowerCase() === lower,
  );
  return suggested ?? text;
}

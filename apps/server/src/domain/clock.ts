/** Where a process reads the time from: the system's, or one a test holds still and moves on. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

import { ACTIVITY_STATUS, type Timing, type TimingStatus } from '@sitemall/contract';

/**
 * Activity countdowns (spec sections 4, 9): the server says its time (currentTime); the client
 * keeps the offset to its own clock and ticks every second, so a wrong PC clock changes nothing.
 */

/** Server time minus client time, measured when the answer arrived. */
export const offsetOf = (serverTime: number, clientTime: number) => serverTime - clientTime;

/** -1 not started, 0 running, 1 ended, at the server time `now`. */
export function phaseAt(timing: Pick<Timing, 'startTimeStamp' | 'endTimeStamp'>, now: number): TimingStatus {
  if (now < timing.startTimeStamp) return ACTIVITY_STATUS.notStarted;
  if (now >= timing.endTimeStamp) return ACTIVITY_STATUS.ended;
  return ACTIVITY_STATUS.running;
}

/** The milliseconds the countdown shows: to the start, or to the end; 0 once ended. */
export function remaining(timing: Pick<Timing, 'startTimeStamp' | 'endTimeStamp'>, now: number): number {
  const phase = phaseAt(timing, now);
  if (phase === ACTIVITY_STATUS.notStarted) return timing.startTimeStamp - now;
  if (phase === ACTIVITY_STATUS.running) return timing.endTimeStamp - now;
  return 0;
}

const two = (n: number) => String(n).padStart(2, '0');
/** hh:mm:ss (hours may pass 24), whole seconds rounded up so 0 shows only at the moment. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

export const PHASE_LABEL: Record<TimingStatus, string> = {
  [-1]: '即将开始',
  0: '抢购中',
  1: '已结束',
};

/** A long countdown: whole days first ("3天 04:05:06"), the clock alone under a day. */
export function dayClock(ms: number): string {
  const days = Math.floor(Math.max(0, ms) / 86_400_000);
  return days > 0 ? `${days}天 ${clock(ms - days * 86_400_000)}` : clock(ms);
}

/** What is left until a time, as 分:秒 (or 时:分:秒); null when it has passed. */
export function timeLeft(untilMs: number, nowMs: number): { ms: number; text: string } | null {
  const ms = untilMs - nowMs;
  if (!(ms > 0)) return null;
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return { ms, text: h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}` };
}

/** The pay ways to offer (spec section 9): the server's list, filtered by the site's paywayConf. */
export function offeredPayWays<T extends { code: string }>(
  fromServer: readonly T[],
  paywayConf: readonly string[],
): T[] {
  return fromServer.filter((way) => paywayConf.includes(way.code));
}

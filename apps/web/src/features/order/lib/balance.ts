import { PAY_WAY } from '@sitemall/contract';

export type BalanceNote =
  | { kind: 'enough' }
  /** Short, but the site takes WeChat Pay: the rest is paid there on the next page. */
  | { kind: 'shortWechat'; short: number }
  /** Short, and points are the only pay way: the order could not be paid. */
  | { kind: 'short'; short: number };

/** What the points balance means for an order of `total` fen on a site with these pay ways. */
export function balanceNote(total: number, balance: number, paywayConf: readonly string[]): BalanceNote {
  if (balance >= total) return { kind: 'enough' };
  const short = total - balance;
  return paywayConf.includes(PAY_WAY.wechatPc) ? { kind: 'shortWechat', short } : { kind: 'short', short };
}

/**
 * Gateways to partner systems. Each has the shape of its real protocol; `npm start` and the
 * tests plug in the local simulators (src/simulators), real endpoints are configuration only.
 */
export interface BankTicketUser {
  userId: string;
  phone?: string;
  /** The ticket's own id: a ticket is accepted once. */
  ticketId: string;
  /** The bank's VIP claim: the level's rank on the site (0 = none) and its end (epoch ms). */
  vipLevel?: number;
  vipExpiresAt?: number;
}

export interface DingtalkUser {
  corpId: string;
  userId: string;
  mobile?: string;
  codeId: string;
}

export interface PartnerAdapters {
  /** Bank SSO ("haers"): exchanges a ticket from the bank portal for the bank's user. */
  bank: { exchangeTicket(siteId: number, ticket: string): Promise<BankTicketUser | undefined> };
  /** DingTalk H5 micro-app: exchanges a free-login auth code of a corp for the user. */
  dingtalk: { userByAuthCode(corpId: string, authCode: string): Promise<DingtalkUser | undefined> };
  /** Messaging app (WeChat official account / pay): app id, OAuth code → open id, JS-SDK ticket. */
  wechat: {
    appIdOf(siteId: number): string;
    openIdByCode(siteId: number, code: string): Promise<{ openId: string; codeId: string } | undefined>;
    jsapiTicket(siteId: number): Promise<string>;
  };
}

import {
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { mallSite } from '../site/site.tables';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A member belongs to one site: the same phone on two sites is two members with two balances.
 * Phone and username are each unique within a site (several NULLs are allowed: a member who
 * came in through a partner may have neither).
 */
export const member = pgTable(
  'member',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => mallSite.id, { onDelete: 'cascade' }),
    phone: text('phone'),
    username: text('username'),
    /** argon2id (PHC string); NULL for members who never set a password. */
    passwordHash: text('password_hash'),
    /** 1 active, 0 disabled. */
    status: smallint('status').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('member_site_phone_uq').on(t.siteId, t.phone),
    uniqueIndex('member_site_username_uq').on(t.siteId, t.username),
  ],
);

/**
 * A login session. Only the SHA-256 of the opaque token is stored; the token is bound to one
 * site and one member and ends at the first of: idle expiry, absolute expiry, revocation.
 */
export const memberSession = pgTable(
  'member_session',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id')
      .notNull()
      .references(() => member.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
    lastSeenAt: at('last_seen_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    /** logout | superseded | password | disabled | operator */
    revokeReason: text('revoke_reason'),
  },
  (t) => [index('member_session_member_idx').on(t.memberId)],
);

/** The current SMS code of a (site, phone, purpose); sending again replaces it. */
export const smsCode = pgTable(
  'sms_code',
  {
    siteId: integer('site_id').notNull(),
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    consumedAt: at('consumed_at'),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.phone, t.purpose] })],
);

/** A partner's user (bank, DingTalk, messaging app ...) linked to a member, per site. */
export const externalIdentity = pgTable(
  'external_identity',
  {
    siteId: integer('site_id').notNull(),
    partner: text('partner').notNull(),
    externalId: text('external_id').notNull(),
    memberId: integer('member_id')
      .notNull()
      .references(() => member.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.partner, t.externalId] }),
    index('external_identity_member_idx').on(t.memberId),
  ],
);

/**
 * Single-use values: nonces of encrypted fields, partner tickets, signed-link nonces. The
 * primary key makes "use once" hold across server processes.
 */
export const usedNonce = pgTable(
  'used_nonce',
  {
    nonce: text('nonce').primaryKey(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('used_nonce_expires_idx').on(t.expiresAt)],
);

/** An image verification code (captcha): 5 minutes, single use. */
export const imageCode = pgTable('image_code', {
  id: text('id').primaryKey(),
  siteId: integer('site_id').notNull(),
  answer: text('answer').notNull(),
  expiresAt: at('expires_at').notNull(),
});

/**
 * Fixed-window counters of the rate limits when there is no Redis: in the database they
 * survive a restart and are shared by every process on it.
 */
export const rateWindow = pgTable(
  'rate_window',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    endsAt: at('ends_at').notNull(),
  },
  (t) => [index('rate_window_ends_idx').on(t.endsAt)],
);

/**
 * Failed password logins per (site, account, client address). The pair, not the account,
 * is slowed down, so a stranger cannot lock the owner out; the account's total and an
 * address's spread over accounts raise the image-code requirement and the spraying alert.
 */
export const loginFailure = pgTable(
  'login_failure',
  {
    siteId: integer('site_id').notNull(),
    account: text('account').notNull(),
    ip: text('ip').notNull(),
    failures: integer('failures').notNull(),
    lastFailedAt: at('last_failed_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.account, t.ip] }),
    index('login_failure_ip_idx').on(t.ip, t.lastFailedAt),
    index('login_failure_last_idx').on(t.lastFailedAt),
  ],
);

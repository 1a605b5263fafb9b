import {
  ADMIN_API_PREFIX,
  addressApi,
  adminApi,
  type BodyOf,
  CODE,
  type DataOf,
  type Endpoint,
  grants,
  orderApi,
  type PayResult,
  type SubmitOrderResult,
} from '@sitemall/contract';
import { count } from 'drizzle-orm';
import { DEMO_OPERATORS, DEMO_ROLES } from '../../db/demo/operators';
import { DEMO_SITES } from '../../db/demo/sites';
import { type TestApp, testApp } from '../../test/harness';
import { client, nextIp } from '../identity/identity.fixtures';
import { buyer, NANJING, pickSpecs } from '../order/order.fixtures';
import { auditLog } from './admin.tables';

/** Test helpers for the console (real app, real database). */

export interface AdminAnswer<T> {
  status: number;
  body: { code: number; msg: string; success: boolean; data: T };
}

/** Calls a console endpoint of the contract as the operator of `token` (none: anonymous). */
export function adminClient(t: TestApp) {
  async function call<E extends Endpoint>(
    declared: E,
    payload: BodyOf<E> | Record<string, unknown>,
    token?: string,
    ip = nextIp(),
  ): Promise<AdminAnswer<DataOf<E>>> {
    const url = `${ADMIN_API_PREFIX}${declared.path}`;
    const headers = token ? { token } : {};
    const res =
      declared.method === 'GET'
        ? await t.app.inject({
            method: 'GET',
            url,
            query: Object.fromEntries(
              Object.entries(payload as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
            ),
            headers,
            remoteAddress: ip,
          })
        : await t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: ip });
    // A file answer (a download) has no envelope: its body is left out.
    const isJson = String(res.headers['content-type'] ?? '').includes('json');
    return { status: res.statusCode, body: isJson ? res.json() : (undefined as never) };
  }
  async function tokenOf(username: string, password: string): Promise<string> {
    const answer = await call(adminApi.login, { username, password });
    if (answer.body.code !== 200 || !answer.body.data.token)
      throw new Error(`login ${username}: ${answer.body.msg}`);
    return answer.body.data.token;
  }
  return { call, tokenOf };
}

/**
 * Whether the demo permission table (db/demo/operators.ts) gives the operator `permission` on
 * the site ('all': on every site), for the matrix tests.
 */
export const holds = (username: string, permission: string, siteId: number | 'all') =>
  DEMO_OPERATORS.find((o) => o.username === username)?.roles.some(({ role, siteIds }) => {
    const permissions = DEMO_ROLES.find((r) => r.name === role)?.permissions ?? [];
    const onSite = siteId === 'all' ? siteIds === null : siteIds === null || siteIds.includes(siteId);
    return onSite && permissions.some((held) => grants(held, permission));
  }) ?? false;

/** The demo operators' passwords (db/demo/operators.ts). */
export const PASSWORDS: Record<string, string> = {
  admin: 'Admin#2026',
  op719: 'Op719#2026',
  finance: 'Finance#2026',
  cs10110: 'Cs10110#2026',
};

/**
 * A console test file's set-up: the app on a real database, its console client, a storefront
 * client (for what members see of a console write) and a session token of every demo operator
 * by username (what the permission matrices call each route as).
 */
export async function consoleApp(overrides?: Parameters<typeof testApp>[0]) {
  const t = await testApp(overrides);
  const admin = adminClient(t);
  const tokens: Record<string, string> = {};
  for (const [username, password] of Object.entries(PASSWORDS))
    tokens[username] = await admin.tokenOf(username, password);
  return { t, admin, shop: client(t), tokens };
}

/** A member of the site with a paid order of one physical product, awaiting shipment (24). */
export async function paidOrder(t: TestApp, siteId: number) {
  const api = client(t);
  const me = await buyer(t, siteId, 10_000_000);
  const [spec] = await pickSpecs(t.db, siteId, { stock: 50 });
  await api.post(addressApi.save.path, { siteId, ...NANJING }, me.token);
  const submitted = await api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId,
      productInfos: [{ productId: spec?.productId, specificationId: spec?.specificationId, num: 1 }],
    },
    me.token,
  );
  if (submitted.body.code !== 200) throw new Error(`submit: ${submitted.body.msg}`);
  const paid = await api.post<PayResult>(
    orderApi.payOrder.path,
    { siteId, orderNo: submitted.body.data.orderNo, payWay: 'ye' },
    me.token,
  );
  if (!paid.body.data.isPaid) throw new Error(`pay: ${paid.body.msg}`);
  return {
    member: me,
    orderNo: submitted.body.data.orderNo,
    childOrderNo: submitted.body.data.childOrderNo[0] as string,
  };
}

export type MatrixRoute = [Endpoint, (siteId: number) => Record<string, unknown>];

/**
 * Tries each route as each demo operator against each demo site: allowed exactly when the demo
 * permission table gives the route's permission on that site, else 403 with no audit row.
 * Allowed writes must be shaped to be refused on their own terms (unknown ids), so nothing is
 * written either, except the routes in `creating`: they cannot be shaped so and write when
 * allowed (refused, they too write nothing). Answers the mismatches (none: the matrix holds).
 */
export async function matrixMismatches(
  t: TestApp,
  tokens: Record<string, string>,
  routes: MatrixRoute[],
  { creating = [] }: { creating?: Endpoint[] } = {},
): Promise<string[]> {
  const audits = async () => (await t.db.select({ n: count() }).from(auditLog))[0]?.n ?? 0;
  const mismatches: string[] = [];
  for (const { username } of DEMO_OPERATORS)
    for (const [declared, payload] of routes)
      for (const { id: siteId } of DEMO_SITES) {
        const before = await audits();
        const body = payload(siteId);
        const res = await t.app.inject({
          method: declared.method,
          url: `${ADMIN_API_PREFIX}${declared.path}`,
          ...(declared.method === 'GET'
            ? { query: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])) }
            : { payload: body }),
          headers: { token: tokens[username] as string },
        });
        // A file answer is allowed by definition; a refusal is the envelope.
        const code = res.headers['content-type']?.toString().includes('json') ? res.json().code : 200;
        const expected = holds(username, declared.operator as string, siteId);
        const allowed = code !== 403 && code !== CODE.unauthorized && code !== CODE.badRequest;
        const wrote = (await audits()) !== before;
        const mayWrite = expected && creating.includes(declared);
        if (allowed !== expected || (!expected && code !== 403) || (wrote && !mayWrite))
          mismatches.push(`${username} ${declared.path} ${siteId}: ${code}${wrote ? ' (wrote)' : ''}`);
      }
  return mismatches;
}

import type { FastifyRequest } from 'fastify';
import {
  CLOCK_WINDOW_SECONDS,
  parseAuthorization,
  rsaVerify,
  signedText,
  unixNow,
} from '../../modules/payment/wechatpay/protocol';
import type { SimMerchant } from './index';
import { WechatpayRefusal } from './refusal';

const signError = (message: string) => new WechatpayRefusal(401, 'SIGN_ERROR', message);

/** The exact text the merchant sent: what its signature covers ('' when there is none). */
export const rawBodyOf = (req: FastifyRequest) => (typeof req.body === 'string' ? req.body : '');

/**
 * Checks a merchant request the way WeChat does: a v3 Authorization from a known merchant,
 * with a key it uploaded, signed within five minutes over METHOD\nURL\nTIMESTAMP\nNONCE\nBODY\n.
 *
 * URL is the API path and query (/v3/…?mchid=…) as on api.mch.weixin.qq.com. Behind our mount
 * point, clients that sign the pathname of the URL they request (wechatpay-axios-plugin does)
 * include `/simulator/wechatpay`; the real API has no prefix, so both forms are accepted here.
 */
export async function authenticate(
  req: FastifyRequest,
  options: { prefix: string; merchant(mchid: string): Promise<SimMerchant | undefined> },
): Promise<SimMerchant> {
  const auth = parseAuthorization(req.headers.authorization);
  if (!auth) throw signError('Authorization 缺失或格式不正确（应为 WECHATPAY2-SHA256-RSA2048 …）');
  const merchant = await options.merchant(auth.mchid);
  if (!merchant) throw signError(`商户号 ${auth.mchid} 不存在`);
  const publicKey = merchant.publicKeys.get(auth.serial_no);
  if (!publicKey) throw signError(`商户证书序列号 ${auth.serial_no} 未在商户平台登记`);
  if (
    !/^\d{1,12}$/.test(auth.timestamp) ||
    Math.abs(unixNow() - Number(auth.timestamp)) > CLOCK_WINDOW_SECONDS
  ) {
    throw signError('请求时间戳与当前时间相差超过 5 分钟');
  }
  const fullUrl = req.url;
  const apiUrl =
    options.prefix && fullUrl.startsWith(options.prefix) ? fullUrl.slice(options.prefix.length) : fullUrl;
  const body = rawBodyOf(req);
  const isSigned = [apiUrl, fullUrl].some((url) =>
    rsaVerify(signedText(req.method, url, auth.timestamp, auth.nonce_str, body), auth.signature, publicKey),
  );
  if (!isSigned) throw signError('签名错误');
  return merchant;
}

/**
 * What WeChat Pay refuses, with the HTTP status and v3 error code it answers
 * ({"code","message"}); the API routes send it as is, `pay()` and `fail()` throw it.
 */
export class WechatpayRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WechatpayRefusal';
  }
}

export const paramError = (message: string) => new WechatpayRefusal(400, 'PARAM_ERROR', message);
export const orderNotExist = () => new WechatpayRefusal(404, 'ORDER_NOT_EXIST', '订单不存在');
export const orderPaid = () => new WechatpayRefusal(400, 'ORDERPAID', '该订单已支付');
export const orderClosed = () => new WechatpayRefusal(400, 'ORDER_CLOSED', '当前订单已关闭，请重新下单');

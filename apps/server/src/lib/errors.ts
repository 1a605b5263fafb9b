import { CODE } from '@sitemall/contract';

/**
 * The one error type of the server. `code` goes into the envelope; `msg` is shown to the
 * shopper, so it is always a clear Chinese sentence and never carries internal detail.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    /** What the client needs to show the refusal (an activity's timing, an authErrUrl). */
    readonly data?: Record<string, unknown>,
  ) {
    super(msg);
    this.name = 'AppError';
  }
}

export const badRequest = (msg: string) => new AppError(CODE.badRequest, msg);
export const failure = (msg: string) => new AppError(CODE.failure, msg);
export const unauthorized = (msg = '请先登录') => new AppError(CODE.unauthorized, msg);
export const tokenInvalid = (msg = '登录已失效，请重新登录') => new AppError(CODE.tokenInvalid, msg);

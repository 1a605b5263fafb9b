import { CODE, FINITE_KEYWORD } from '@sitemall/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../lib/envelope';
import { AppError } from '../lib/errors';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const field = (e: AjvError) => e.instancePath.replace(/^\//, '').replaceAll('/', '.') || '请求体';

/** AJV errors as one Chinese sentence naming the first bad field. */
export function validationMessage(errors: AjvError[]): string {
  const [e] = errors;
  if (!e) return '参数不合法';
  switch (e.keyword) {
    case 'required':
      return `缺少参数：${String(e.params.missingProperty)}`;
    case 'type':
      return `参数 ${field(e)} 格式不正确`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case FINITE_KEYWORD:
      return `参数 ${field(e)} 超出允许范围`;
    case 'maxLength':
    case 'maxItems':
      return `参数 ${field(e)} 过长`;
    case 'minLength':
    case 'minItems':
      return `参数 ${field(e)} 不能为空`;
    default:
      return `参数 ${field(e)} 不合法`;
  }
}

/** Framework errors that are the client's fault, in words a shopper understands. */
const CLIENT_FAULTS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, '请求内容过大（上限 1 MB）'],
  FST_REQ_FILE_TOO_LARGE: [413, '上传文件过大'],
  FST_PARTS_LIMIT: [413, '表单字段过多'],
  FST_FILES_LIMIT: [413, '上传文件过多'],
  FST_FIELDS_LIMIT: [413, '表单字段过多'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, '不支持的请求格式'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [CODE.badRequest, '请求体为空'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [CODE.badRequest, '请求长度不正确'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [CODE.badRequest, '表单格式不正确'],
};

/**
 * One place maps every failure into the envelope. Handled outcomes answer HTTP 200; faults we
 * did not expect answer 500 with a generic msg, and their detail goes only to the log.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError & { validation?: AjvError[] }, req, reply) => {
    if (error instanceof AppError) {
      // Refusal data is no shape of the route's success schema: sent as plain JSON.
      if (error.data)
        return reply
          .status(200)
          .type('application/json; charset=utf-8')
          .serializer(JSON.stringify)
          .send(fail(error.code, error.msg, error.data));
      return reply.status(200).send(fail(error.code, error.msg));
    }
    if (error.validation)
      return reply.status(200).send(fail(CODE.badRequest, validationMessage(error.validation)));
    const known = error.code ? CLIENT_FAULTS[error.code] : undefined;
    if (known) return reply.status(200).send(fail(known[0], known[1]));
    // A multipart body that fails before any handler ran is the client's broken form.
    const brokenForm = req.isMultipart?.() && !req.ctx;
    if (brokenForm || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
      req.log.info({ err: error }, 'client error');
      return reply.status(200).send(fail(CODE.badRequest, '请求格式不正确'));
    }
    // The request id comes with req.log; the error is serialised without SQL or values (lib/log).
    req.log.error(
      {
        route: `${req.method} ${req.routeOptions.url ?? req.url.split('?')[0]}`,
        errorClass: error.constructor?.name ?? error.name,
        err: error,
      },
      'unexpected fault',
    );
    return reply.status(500).send(fail(CODE.failure, '服务器繁忙，请稍后再试'));
  });

  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send(fail(404, `接口不存在：${req.method} ${req.url.split('?')[0]}`)),
  );
});

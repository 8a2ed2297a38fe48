import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorAnswer } from '../error-answers.ts';
import { MAX_PROBLEMS_TOLD } from '../input-guard.ts';

/** Every failure answers in the contract's one error shape, `{"detail": ...}`. */
export const errors = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
  },
  { name: 'errors' },
);

function sendError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const answer = errorAnswer(error);
  if (answer) return reply.status(answer.status).headers(answer.headers).send(answer.body);
  const fastifyError = error as FastifyError;
  // A body that does not parse is a validation failure of the body, as for any wrong field (422, every operation documents it).
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return reply
      .status(422)
      .send({ detail: [{ loc: ['body'], msg: `The body is not valid JSON: ${error.message}`, type: 'json_invalid' }] });
  if (fastifyError.validation) {
    const where = fastifyError.validationContext ?? 'body';
    const detail = fastifyError.validation.slice(0, MAX_PROBLEMS_TOLD).map((v) => {
      const field =
        (v.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
        (v.params as { additionalProperty?: string }).additionalProperty;
      const loc = [where, ...v.instancePath.split('/').filter(Boolean), ...(field ? [field] : [])];
      const name = loc.length > 1 ? String(loc[loc.length - 1]) : where;
      return { loc, msg: `${name} ${v.message ?? 'is invalid'}`, type: v.keyword, ctx: v.params };
    });
    return reply.status(422).send({ detail });
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ detail: 'Internal server error' });
  }
  return reply.status(status).send({ detail: error.message });
}

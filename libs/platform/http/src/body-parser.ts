import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { problem, sendProblem } from './problem';

export const MAX_BODY_BYTES = 1024 * 1024;

const DETAILS: Record<string, string> = {
  'entity.parse.failed': 'O corpo da requisição não é JSON válido.',
  'entity.too.large': 'O corpo da requisição passa de 1 MiB.',
};

/** JSON bodies up to 1 MiB. Registered instead of Nest's parser so its errors become problems. */
export const jsonBodyParser: RequestHandler = express.json({ limit: MAX_BODY_BYTES, strict: true });

/** Express error handler for the body parser: malformed JSON is 400, an oversize body 413. */
export function bodyParserErrorHandler(error: { status?: number; type?: string }, request: Request, response: Response, next: NextFunction): void {
  if (!error?.type || !error.status || error.status >= 500) return next(error);
  sendProblem(response, problem(error.status, DETAILS[error.type] ?? 'Corpo da requisição inválido.', request.originalUrl));
}

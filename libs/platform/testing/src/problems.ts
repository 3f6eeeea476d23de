import type { ApiResponse } from './https-client';

/**
 * An RFC 9457 problem document with this status (docs/API.md section 0): the problem media
 * type, every member of the document, and no stack trace anywhere in it.
 */
export function expectProblem(response: ApiResponse, status: number): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String), instance: expect.any(String) });
  expect(JSON.stringify(response.body)).not.toMatch(/at .*\.js:\d+/);
}

/** A 400 problem whose `erros` name these fields, each with a message (and maybe others). */
export function expectInvalid(response: ApiResponse, ...campos: string[]): void {
  expectProblem(response, 400);
  expect(response.body.erros).toEqual(expect.arrayContaining(campos.map((campo) => ({ campo, mensagem: expect.any(String) }))));
}

/** A 400 problem whose `erros` name exactly these fields, once each. */
export function expectInvalidExactly(response: ApiResponse, ...campos: string[]): void {
  expectInvalid(response, ...campos);
  expect((response.body.erros as { campo: string }[]).map((erro) => erro.campo).sort()).toEqual([...campos].sort());
}

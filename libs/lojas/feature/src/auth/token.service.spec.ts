import { JwtService } from '@nestjs/jwt';
import { createSecretKey } from 'node:crypto';
import { TokenService } from './token.service';

const SECRET = 'a-secret-of-at-least-thirty-two-bytes!';

function tokenService(tokenTtlSeconds: number): TokenService {
  const jwt = new JwtService({ secret: createSecretKey(Buffer.from(SECRET)), signOptions: { algorithm: 'HS256' } });
  return new TokenService(jwt, { tokenSecret: SECRET, tokenTtlSeconds, publicBaseUrl: 'https://api.example.com' });
}

describe('TokenService', () => {
  it('accepts a token it issued, again and again', async () => {
    const tokens = tokenService(60);
    const { token } = await tokens.emitir(7);
    const first = await tokens.verificar(token);
    expect(first).toEqual({ idLoja: 7, emitidoEmMs: expect.any(Number) });
    await expect(tokens.verificar(token)).resolves.toEqual(first);
  });

  it('refuses a token once it has expired, even one it accepted before', async () => {
    const tokens = tokenService(1);
    const { token } = await tokens.emitir(7);
    await expect(tokens.verificar(token)).resolves.toMatchObject({ idLoja: 7 });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await expect(tokens.verificar(token)).resolves.toBeUndefined();
  });

  it('refuses a token signed with another key or altered', async () => {
    const tokens = tokenService(60);
    const { token } = await tokenService(60).emitir(7);
    const [header, , signature] = token.split('.');
    const altered = `${header}.${Buffer.from(JSON.stringify({ sub: 'loja:8', idLoja: 8, emt: Date.now() })).toString('base64url')}.${signature}`;
    await expect(tokens.verificar(altered)).resolves.toBeUndefined();
    const forged = await new JwtService({ secret: 'another-secret-of-thirty-two-bytes!!' }).signAsync({ sub: 'loja:7', idLoja: 7, emt: Date.now() });
    await expect(tokens.verificar(forged)).resolves.toBeUndefined();
    await expect(tokens.verificar(token)).resolves.toMatchObject({ idLoja: 7 });
  });
});

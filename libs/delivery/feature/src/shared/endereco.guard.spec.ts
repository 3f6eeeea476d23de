import { lerRedes } from '@trilha/delivery-domain';
import { EnderecoGuard, EnderecoRecusado } from './endereco.guard';

describe('EnderecoGuard', () => {
  const guard = new EnderecoGuard([], [], new Map([['interno', [{ address: '10.0.0.5', family: 4 }]], ['publico', [{ address: '93.184.216.34', family: 4 }]]]));

  it('refuses a name that points to a private address without saying which address', async () => {
    const refusal = await guard.resolver('interno').catch((error: Error) => error);
    expect(refusal).toBeInstanceOf(EnderecoRecusado);
    expect((refusal as Error).message).toBe('endereço não permitido: interno não aponta para um endereço público (loopback, rede privada, link-local ou metadados são recusados)');
    expect((refusal as Error).message).not.toContain('10.0.0.5');
  });

  it('refuses a name whose AAAA records are IPv6 forms of loopback and metadata addresses, keeping its public ones', async () => {
    const formas = ['::7f00:1', '::a9fe:a9fe', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1', '2001:0:a9fe:a9fe::1'].map((address) => ({ address, family: 6 }));
    const guardComFormas = new EnderecoGuard(lerRedes('127.0.0.0/8'), [], new Map([['formas', formas], ['misto', [...formas, { address: '2606:4700:4700::1111', family: 6 }]]]));
    await expect(guardComFormas.resolver('formas')).rejects.toBeInstanceOf(EnderecoRecusado);
    expect(await guardComFormas.resolver('misto')).toEqual([{ address: '2606:4700:4700::1111', family: 6 }]);
  });

  it('gives the allowed addresses of a public name', async () => {
    expect(await guard.resolver('PUBLICO')).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});

import 'reflect-metadata';
import * as classValidator from 'class-validator';
import { IsIn, IsInt, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { InvalidInputException, strictValidationPipe, unacceptableTexts } from './validation';

class Cliente {
  @IsString() @MaxLength(5) nome: string;
}

class Pedido {
  @IsInt() @Min(1) @Max(100) limite: number;
  @IsIn(['envio', 'reversa']) tipo: string;
  @ValidateNested() @Type(() => Cliente) cliente: Cliente;
  @IsString({ message: 'nota deve ser um texto, como a loja escreveu' }) nota: string;
}

async function errosDe(value: unknown, type: 'body' | 'query' | 'param' = 'body', data?: string) {
  try {
    await strictValidationPipe().transform(value, { type, metatype: type === 'param' ? String : Pedido, data });
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputException);
    return (error as InvalidInputException).erros;
  }
  return [];
}

describe('strict validation', () => {
  it('says what is wrong with each field in Portuguese, keeping the messages a request class wrote', async () => {
    const erros = await errosDe({ limite: 0, tipo: 'outro', cliente: { nome: 'Maria Clara' }, nota: 1, extra: true });
    expect(erros.sort((a, b) => a.campo.localeCompare(b.campo))).toEqual([
      { campo: 'cliente.nome', mensagem: 'cliente.nome deve ter no máximo 5 caracteres' },
      { campo: 'extra', mensagem: 'extra não é um campo aceito' },
      { campo: 'limite', mensagem: 'limite deve ser no mínimo 1' },
      { campo: 'nota', mensagem: 'nota deve ser um texto, como a loja escreveu' },
      { campo: 'tipo', mensagem: 'tipo deve ser um destes valores: envio, reversa' },
    ]);
  });

  it('passes a valid body as an instance of its class without class-validator, and leaves every refusal to it', async () => {
    const validate = jest.spyOn(classValidator.Validator.prototype, 'validate');
    const body = () => ({ limite: 3, tipo: 'envio', cliente: { nome: 'Ana' }, nota: 'ok' });
    await strictValidationPipe().transform(body(), { type: 'body', metatype: Pedido }); // the class's reader is compiled
    const metadata = jest.spyOn(classValidator.getMetadataStorage(), 'getTargetValidationMetadatas');
    try {
      const pedido = await strictValidationPipe().transform(body(), { type: 'body', metatype: Pedido });
      expect(pedido).toBeInstanceOf(Pedido);
      expect((pedido as Pedido).cliente).toBeInstanceOf(Cliente);
      expect(pedido).toEqual(body());
      expect(validate).not.toHaveBeenCalled();
      // Nor is class-validator's metadata read again for the nested object.
      expect(metadata).not.toHaveBeenCalled();
      // A field no class declares, at any depth, is class-validator's to name.
      expect(await errosDe({ limite: 3, tipo: 'envio', cliente: { nome: 'Ana', cpf: '1' }, nota: 'ok' })).toEqual([
        { campo: 'cliente.cpf', mensagem: 'cliente.cpf não é um campo aceito' },
      ]);
      expect(validate).toHaveBeenCalledTimes(1);
    } finally {
      validate.mockRestore();
      metadata.mockRestore();
    }
  });

  it('refuses U+0000 and lone surrogates in any text, naming the field, before anything else', async () => {
    expect(await errosDe({ limite: 1, tipo: 'envio', cliente: { nome: 'a\u0000b' }, nota: 'ok' })).toEqual([
      { campo: 'cliente.nome', mensagem: 'cliente.nome contém o caractere nulo (U+0000), que não é aceito' },
    ]);
    expect(await errosDe('PED\uD800', 'param', 'numeroPedido')).toEqual([
      { campo: 'numeroPedido', mensagem: 'numeroPedido contém um caractere UTF-16 incompleto (surrogate sem par)' },
    ]);
    expect(unacceptableTexts({ lista: ['ok', 'x\uDC00'] }, '')).toEqual([{ campo: 'lista.1', mensagem: expect.stringMatching(/^lista\.1 contém/) }]);
    // Whole characters outside the BMP are fine.
    expect(unacceptableTexts({ nome: 'Ana 😀 \uD83D\uDE00' }, '')).toEqual([]);
  });
});

import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { NOTIFICATIONS, type Notificacao } from '.';

/** The fields a payload class declares (its validated properties). */
const declarados = (classe: new () => object) => [...new Set(getMetadataStorage().getTargetValidationMetadatas(classe, '', true, false).map((m) => m.propertyName))];

/** Each entry as the catalog's type says it. */
const catalogo: readonly Notificacao[] = NOTIFICATIONS;

describe('NOTIFICATIONS', () => {
  it.each(catalogo.map((notificacao) => [notificacao.evento, notificacao] as const))('%s has an example its payload class accepts, with every field it declares', (_evento, notificacao) => {
    // Strict, as a producer writes: no field the class does not declare.
    expect(validateSync(plainToInstance(notificacao.data, notificacao.exemplo), { whitelist: true, forbidNonWhitelisted: true })).toEqual([]);
    expect(Object.keys(notificacao.exemplo).sort()).toEqual(declarados(notificacao.data).sort());
  });
});

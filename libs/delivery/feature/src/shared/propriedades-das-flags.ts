import { NOTIFICATIONS, type Notificacao } from '@trilha/contracts';

/**
 * Declares on `classe` one property per registration flag, in the order of NOTIFICATIONS, with
 * the decorators `decoradores` gives for its notification. They are listed as they would be
 * stacked above a field and applied the same way, bottom first. The class's type gets the flags
 * by merging with an interface of the same name.
 */
export function propriedadesDasFlags(classe: abstract new () => object, decoradores: (notificacao: Notificacao) => PropertyDecorator[]): void {
  for (const notificacao of NOTIFICATIONS) {
    for (const decorador of decoradores(notificacao).reverse()) decorador(classe.prototype, notificacao.flag);
  }
}

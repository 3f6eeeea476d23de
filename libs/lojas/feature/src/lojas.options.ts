export interface LojasOptions {
  /** HMAC key of the bearer tokens; every gateway replica shares it. */
  tokenSecret: string;
  tokenTtlSeconds: number;
  /** The https origin (and path) the public reaches the gateway at: the base of the portal's links. */
  publicBaseUrl: string;
  /** Operator key; when unset, the operator routes answer 404. */
  adminApiKey?: string;
}

export const LOJAS_OPTIONS = Symbol('LOJAS_OPTIONS');

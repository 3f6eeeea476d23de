import { z } from 'zod';
import { serviceConfigSchema } from '@trilha/config';
import { internalServiceSettings } from '@trilha/service-runtime';

export const trackingConfigSchema = serviceConfigSchema({
  ...internalServiceSettings,
  /** Public HTTPS origin (and path) where the gateway serves /rastreio/<token>: the base of every linkRastreio. */
  PUBLIC_BASE_URL: z
    .string()
    .regex(/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an https:// URL without query or fragment')
    .max(200, 'must be at most 200 characters (linkRastreio has 255)')
    .transform((url) => url.replace(/\/+$/, '')),
});

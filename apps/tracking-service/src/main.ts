import './tracing';
import { main, runInternalService } from '@trilha/service-runtime';
import { TRACKING_SERVICE, TrackingModule } from '@trilha/tracking';
import { trackingConfigSchema } from './config';

main(() =>
  runInternalService({
    service: TRACKING_SERVICE,
    config: trackingConfigSchema,
    module: (config) => TrackingModule.register({ publicBaseUrl: config.PUBLIC_BASE_URL }),
  }),
);

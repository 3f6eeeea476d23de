export interface TrackingOptions {
  /** Where the public tracking page is served (no trailing slash): linkRastreio is `<this>/rastreio/<token>`. */
  publicBaseUrl: string;
}

export const TRACKING_OPTIONS = Symbol('TRACKING_OPTIONS');

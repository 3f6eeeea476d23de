export * from './operations';
export * from './tool-call';
export * from './stdio-server';

/** Public entry of the service inside an app's own server (`@store-upload-kit/service/handler`). */
export { createStoreHandler } from './create-store-handler.ts';
export type { StoreHandler, StoreHandlerOptions } from './create-store-handler.ts';
export type { AppAuthenticate, AppRequest, AppUser } from './app-sign-in.ts';

export { type AddressVerdict, canonicalIp, checkAddress, isLocalName } from './address-policy.ts';
export { checkUrl, type UrlVerdict } from './check-url.ts';
export {
  createGuardedConnector,
  createGuardedDispatcher,
  type GuardedDispatcherOptions,
} from './guarded-dispatcher.ts';
export {
  type GuardedSocketOptions,
  type OpenSocketRequest,
  openGuardedSocket,
  type TlsTrust,
} from './guarded-socket.ts';
export {
  endpointKey,
  type GuardedTarget,
  type GuardOptions,
  normaliseHost,
  type ResolveHost,
  resolveGuardedTarget,
} from './guarded-target.ts';
export { findSsrfError, SsrfError } from './ssrf-error.ts';

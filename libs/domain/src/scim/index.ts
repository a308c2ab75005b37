export * from './scim-error';
export * from './group';
export * from './scim-schemas';
export * from './scim-provisioning';
export { etagOf, SCIM_KEY_MAX_LENGTH } from './scim-resources';
export * from './scim-discovery';

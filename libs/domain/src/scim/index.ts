export * from './scim-error';
export * from './scim-schemas';
export * from './scim-provisioning';
export { etagOf } from './scim-resources';
export * from './scim-discovery';
